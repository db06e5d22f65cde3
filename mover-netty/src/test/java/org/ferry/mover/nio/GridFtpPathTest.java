package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * {@link GridFtpPath} behaves as the JDK's Unix paths do: every operation on generated path
 * strings (slashes doubled and trailing, {@code .}, {@code ..}, spaces, {@code %}, UTF-8, the empty
 * path) gives what {@link FileSystems#getDefault()} gives, exceptions included.
 */
class GridFtpPathTest {

    private static GridFtpFileSystem fileSystem;

    @BeforeContainer
    static void open() throws IOException {
        // a file system object only: no session is opened by path operations
        fileSystem =
                (GridFtpFileSystem) FileSystems.newFileSystem(URI.create("ftp://alice@example.org:2811/"), Map.of());
    }

    @AfterContainer
    static void close() throws IOException {
        fileSystem.close();
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> name = Arbitraries.of("a", "b", "x y", "100%", "ü", ".", "..", "a%20b");
        Arbitrary<String> separator = Arbitraries.of("/", "//");
        return Arbitraries.oneOf(
                Arbitraries.of("", "/", "//", "a/", "/a/"),
                name.list()
                        .ofMinSize(1)
                        .ofMaxSize(5)
                        .flatMap(names -> separator
                                .list()
                                .ofSize(names.size())
                                .map(seps -> {
                                    StringBuilder sb = new StringBuilder();
                                    for (int i = 0; i < names.size(); i++) {
                                        sb.append(seps.get(i)).append(names.get(i));
                                    }
                                    return sb.toString();
                                })
                                .flatMap(absolute -> Arbitraries.of(absolute, absolute.substring(1), absolute + "/"))));
    }

    /** The result of an operation or the exception's class, as text. */
    private static String outcome(Path path, Function<Path, Object> operation) {
        try {
            Object result = operation.apply(path);
            return String.valueOf(result);
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static List<Function<Path, Object>> unary() {
        List<Function<Path, Object>> ops = new ArrayList<>();
        ops.add(p -> p);
        ops.add(Path::isAbsolute);
        ops.add(Path::getNameCount);
        ops.add(Path::getFileName);
        ops.add(Path::getParent);
        ops.add(Path::getRoot);
        ops.add(Path::normalize);
        ops.add(p -> p.getName(0));
        ops.add(p -> p.getName(p.getNameCount() - 1));
        ops.add(p -> p.subpath(0, p.getNameCount()));
        ops.add(p -> p.getNameCount() > 1 ? p.subpath(1, p.getNameCount()) : "-");
        ops.add(p -> {
            List<String> names = new ArrayList<>();
            p.forEach(n -> names.add(n.toString()));
            return names;
        });
        ops.add(p -> p.resolveSibling("s"));
        ops.add(p -> p.startsWith("/"));
        ops.add(p -> p.endsWith(""));
        return ops;
    }

    @Property(tries = 500)
    void unaryOperationsMatchTheJdk(@ForAll("paths") String text) {
        Path ours = fileSystem.getPath(text);
        Path jdks = Path.of(text);
        List<Function<Path, Object>> ops = unary();
        for (int i = 0; i < ops.size(); i++) {
            assertThat(outcome(ours, ops.get(i)))
                    .as("operation %d on '%s'", i, text)
                    .isEqualTo(outcome(jdks, ops.get(i)));
        }
    }

    @Property(tries = 1000)
    void binaryOperationsMatchTheJdk(@ForAll("paths") String one, @ForAll("paths") String two) {
        Path a = fileSystem.getPath(one);
        Path b = fileSystem.getPath(two);
        Path x = Path.of(one);
        Path y = Path.of(two);
        assertThat(outcome(a, p -> p.resolve(b)))
                .as("'%s'.resolve('%s')", one, two)
                .isEqualTo(outcome(x, p -> p.resolve(y)));
        assertThat(outcome(a, p -> p.relativize(b)))
                .as("'%s'.relativize('%s')", one, two)
                .isEqualTo(outcome(x, p -> p.relativize(y)));
        assertThat(a.startsWith(b)).as("'%s'.startsWith('%s')", one, two).isEqualTo(x.startsWith(y));
        assertThat(a.endsWith(b)).as("'%s'.endsWith('%s')", one, two).isEqualTo(x.endsWith(y));
        assertThat(a.equals(b)).isEqualTo(x.equals(y));
        assertThat(Integer.signum(a.compareTo(b))).isEqualTo(Integer.signum(x.compareTo(y)));
    }

    @Property(tries = 300)
    void aUriNamesTheSamePathEncodedOnce(@ForAll("paths") String text) {
        Path path = fileSystem.getPath(text).toAbsolutePath();
        URI uri = path.toUri();
        assertThat(uri.getScheme()).isEqualTo("ftp");
        assertThat(uri.getRawUserInfo()).isEqualTo("alice");
        assertThat(uri.getRawPath()).doesNotContain(" ", "ü");
        assertThat(fileSystem.provider().getPath(uri)).isEqualTo(path);
        assertThat(Path.of(uri)).isEqualTo(path);
    }

    @Property(tries = 1)
    void theEncodingIsExactlyOnce() {
        Path path = Path.of(URI.create("ftp://alice@example.org:2811/data/100%25%20done/a%2520b"));
        assertThat(path).isInstanceOf(GridFtpPath.class);
        assertThat(path.toString()).isEqualTo("/data/100% done/a%20b");
        assertThat(path.toUri().toString()).isEqualTo("ftp://alice@example.org:2811/data/100%25%20done/a%2520b");
        assertThat(Path.of(URI.create("ftp://alice@example.org:2811/d%C3%BC")).toString())
                .isEqualTo("/dü");
        assertThat(Path.of(URI.create("ftp://alice@EXAMPLE.org/x")).getFileSystem())
                .isSameAs(fileSystem);
        assertThatThrownBy(() -> fileSystem.getPath("a\r\nDELE x")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> Path.of(URI.create("ftp://alice@example.org/x?y")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
