package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The {@code java.nio.file.Files} contract as a program relies on it, written once and run against
 * several file systems: the JDK's default one (the reference: a case that fails there is a wrong
 * case), and GridFTP file systems of this package over ferry-gridftp and globus-gridftp-server, in
 * clear text and with GSI. A subclass gives a fresh directory per case on the file system under
 * test and the local file behind a path (both servers serve local directories), so that what a case
 * wrote is checked where it landed too. Files are small (a few MiB at most); remote subclasses set
 * small windows so that they span many partial retrieves. Shared with integration-tests through
 * mover-netty's test-jar.
 */
public abstract class FileSystemContract {

    /** Names a program may meet: spaces, UTF-8, a literal {@code %} and a literal {@code %20}. */
    protected static final List<String> AWKWARD_NAMES =
            List.of("with space.txt", "héllo wörld ☃.dat", "100%.bin", "a%20b", "日本語 データ.h5");

    /**
     * @return the names {@link #namesWithSpacesUtf8AndPercentSurviveEveryOperation} uses, the first
     *     for a directory; {@link #AWKWARD_NAMES} and a directory {@code dir %41 ünï} unless the
     *     file system under test cannot carry some (it then shows that it refuses them instead)
     */
    protected List<String> awkwardNames() {
        List<String> names = new ArrayList<>(List.of("dir %41 ünï"));
        names.addAll(AWKWARD_NAMES);
        return names;
    }

    private static final AtomicInteger CASES = new AtomicInteger();

    /** The case's own empty directory on the file system under test. */
    protected Path dir;

    /**
     * @param name a name for the case's directory (unique per case)
     * @return a new, empty directory on the file system under test
     */
    protected abstract Path newDirectory(String name) throws IOException;

    /**
     * @param path a path on the file system under test
     * @return the local file behind it (the path itself on the default file system)
     */
    protected abstract Path local(Path path);

    @BeforeEach
    void makeDirectory(TestInfo info) throws IOException {
        String method = info.getTestMethod().map(m -> m.getName()).orElse("case");
        dir = newDirectory(method + "-" + CASES.incrementAndGet());
    }

    /** @return {@code size} reproducible random bytes */
    protected static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    @Test
    void writtenBytesReadBackWholeAndLandWhereTheyShould() throws IOException {
        byte[] data = bytes(3_000_017, 1);
        Path file = dir.resolve("data.bin");
        Files.write(file, data);
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
        assertThat(Files.size(file)).isEqualTo(data.length);
        assertThat(local(file)).hasBinaryContent(data);
    }

    @Test
    void anInputStreamReadsInSmallPiecesAndSkips() throws IOException {
        byte[] data = bytes(2_500_000, 2);
        Path file = dir.resolve("stream.bin");
        Files.write(file, data);
        java.io.ByteArrayOutputStream copy = new java.io.ByteArrayOutputStream();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                copy.write(buffer, 0, n);
            }
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(copy.toByteArray()).isEqualTo(data);
        try (InputStream in = Files.newInputStream(file)) {
            assertThat(in.skip(1_000_000)).isEqualTo(1_000_000);
            assertThat(in.read()).isEqualTo(data[1_000_000] & 0xff);
        }
    }

    @Test
    void aByteChannelReadsAtAnyPositionAndGivesMinusOneAtTheEnd() throws IOException {
        byte[] data = bytes(2_000_003, 3);
        Path file = dir.resolve("random.bin");
        Files.write(file, data);
        SplittableRandom random = new SplittableRandom(33);
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            assertThat(channel.size()).isEqualTo(data.length);
            for (int i = 0; i < 40; i++) {
                int position = random.nextInt(data.length);
                int length = 1 + random.nextInt(300_000);
                ByteBuffer buffer = ByteBuffer.allocate(length);
                channel.position(position);
                while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                    // reads may return less than asked
                }
                int got = buffer.position();
                assertThat(got).isEqualTo(Math.min(length, data.length - position));
                byte[] expected = java.util.Arrays.copyOfRange(data, position, position + got);
                assertThat(java.util.Arrays.copyOf(buffer.array(), got)).isEqualTo(expected);
                assertThat(channel.position()).isEqualTo(position + got);
            }
            channel.position(data.length);
            assertThat(channel.read(ByteBuffer.allocate(10))).isEqualTo(-1);
            channel.position(data.length + 1_000L);
            assertThat(channel.read(ByteBuffer.allocate(10))).isEqualTo(-1);
            channel.position(0);
            ByteBuffer first = ByteBuffer.allocate(4);
            assertThat(channel.read(first)).isEqualTo(4);
            assertThat(first.array()).isEqualTo(java.util.Arrays.copyOf(data, 4));
        }
    }

    @Test
    void aWritingChannelWritesAtOffsetsIntoAnExistingFile() throws IOException {
        byte[] data = bytes(1_500_000, 4);
        Path file = dir.resolve("patched.bin");
        Files.write(file, data);
        byte[] patchA = bytes(5_000, 41);
        byte[] patchB = bytes(300_000, 42);
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.WRITE)) {
            assertThat(channel.size()).isEqualTo(data.length);
            channel.position(1_000);
            channel.write(ByteBuffer.wrap(patchA));
            channel.position(1_400_000);
            channel.write(ByteBuffer.wrap(patchB)); // runs past the old end
            assertThat(channel.position()).isEqualTo(1_700_000);
            assertThat(channel.size()).isEqualTo(1_700_000);
        }
        byte[] expected = java.util.Arrays.copyOf(data, 1_700_000);
        System.arraycopy(patchA, 0, expected, 1_000, patchA.length);
        System.arraycopy(patchB, 0, expected, 1_400_000, patchB.length);
        assertThat(Files.readAllBytes(file)).isEqualTo(expected);
        assertThat(local(file)).hasBinaryContent(expected);
    }

    @Test
    void appendWritesAtTheEnd() throws IOException {
        Path file = dir.resolve("log.txt");
        Files.writeString(file, "one\n");
        Files.writeString(file, "two\n", StandardOpenOption.APPEND);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
            out.write("three\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(file)).isEqualTo("one\ntwo\nthree\n");
    }

    @Test
    void writingOverALongerFileTruncatesItAndAnEmptyFileIsEmpty() throws IOException {
        Path file = dir.resolve("shrinks.txt");
        Files.write(file, bytes(100_000, 5));
        Files.writeString(file, "short");
        assertThat(Files.readString(file)).isEqualTo("short");
        Path empty = dir.resolve("empty");
        Files.write(empty, new byte[0]);
        assertThat(Files.size(empty)).isZero();
        assertThat(Files.readAllBytes(empty)).isEmpty();
        try (InputStream in = Files.newInputStream(empty)) {
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(local(empty)).isEmptyFile();
    }

    @Test
    void openingWhatIsNotThereOrIsAlreadyThereFailsAsTheJdkSays() throws IOException {
        Path missing = dir.resolve("missing.bin");
        assertThatThrownBy(() -> Files.readAllBytes(missing)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.newInputStream(missing)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.newByteChannel(missing, StandardOpenOption.WRITE))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.write(dir.resolve("no dir").resolve("x"), new byte[1]))
                .isInstanceOf(NoSuchFileException.class);
        Path existing = Files.writeString(dir.resolve("existing.txt"), "here");
        assertThatThrownBy(() -> Files.newOutputStream(existing, StandardOpenOption.CREATE_NEW))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(existing)).isEqualTo("here");
        assertThatThrownBy(() -> Files.readAllBytes(dir)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> Files.newDirectoryStream(existing)).isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> Files.newDirectoryStream(missing)).isInstanceOf(NoSuchFileException.class);
        assertThat(Files.exists(missing)).isFalse();
        assertThat(Files.notExists(missing)).isTrue();
        assertThat(Files.exists(existing)).isTrue();
    }

    @Test
    void aClosedChannelSaysSo() throws IOException {
        Path file = Files.write(dir.resolve("c.bin"), bytes(1000, 6));
        SeekableByteChannel reading = Files.newByteChannel(file);
        reading.close();
        assertThat(reading.isOpen()).isFalse();
        assertThatThrownBy(() -> reading.read(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(reading::size).isInstanceOf(ClosedChannelException.class);
        SeekableByteChannel writing = Files.newByteChannel(file, StandardOpenOption.WRITE);
        writing.close();
        assertThatThrownBy(() -> writing.write(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void aDirectoryListsItsEntriesAndFiltersThem() throws IOException {
        Files.writeString(dir.resolve("a.txt"), "a");
        Files.writeString(dir.resolve("b.txt"), "b");
        Files.writeString(dir.resolve("c.dat"), "c");
        Files.createDirectory(dir.resolve("sub"));
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("a.txt", "b.txt", "c.dat", "sub");
        }
        try (DirectoryStream<Path> texts = Files.newDirectoryStream(dir, "*.txt")) {
            List<String> names = new ArrayList<>();
            texts.forEach(p -> names.add(p.getFileName().toString()));
            assertThat(names).containsExactlyInAnyOrder("a.txt", "b.txt");
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir)) {
            for (Path entry : all) {
                assertThat(entry.getParent()).isEqualTo(dir);
                assertThat(Files.isDirectory(entry))
                        .isEqualTo(entry.getFileName().toString().equals("sub"));
            }
        }
    }

    @Test
    void walkVisitsTheWholeTree() throws IOException {
        Set<String> expected = new HashSet<>();
        for (int d = 0; d < 3; d++) {
            Path level1 = Files.createDirectory(dir.resolve("d" + d));
            expected.add("d" + d);
            for (int e = 0; e < 2; e++) {
                Path level2 = Files.createDirectory(level1.resolve("e" + e));
                expected.add("d" + d + "/e" + e);
                for (int f = 0; f < 3; f++) {
                    Files.writeString(level2.resolve("f" + f + ".txt"), "x".repeat(f));
                    expected.add("d" + d + "/e" + e + "/f" + f + ".txt");
                }
            }
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            Set<String> seen = walk.filter(p -> !p.equals(dir))
                    .map(p -> dir.relativize(p).toString())
                    .collect(Collectors.toSet());
            assertThat(seen).isEqualTo(expected);
        }
        List<Long> sizes = new ArrayList<>();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                sizes.add(attributes.size());
                return FileVisitResult.CONTINUE;
            }
        });
        assertThat(sizes).hasSize(18);
        assertThat(sizes.stream().mapToLong(Long::longValue).sum()).isEqualTo(3 * 2 * (0 + 1 + 2));
        try (Stream<Path> found = Files.find(dir, 10, (p, a) -> a.isRegularFile() && a.size() == 2)) {
            assertThat(found.count()).isEqualTo(6);
        }
    }

    @Test
    void attributesTellSizeTypeTimeAndPermissions() throws IOException {
        Path file = Files.write(dir.resolve("attrs.bin"), bytes(12_345, 7));
        Instant time = Instant.parse("2024-02-29T12:34:56Z");
        Files.setLastModifiedTime(file, FileTime.from(time));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        BasicFileAttributes basic = Files.readAttributes(file, BasicFileAttributes.class);
        assertThat(basic.size()).isEqualTo(12_345);
        assertThat(basic.isRegularFile()).isTrue();
        assertThat(basic.isDirectory()).isFalse();
        assertThat(basic.lastModifiedTime().toInstant()).isEqualTo(time);
        PosixFileAttributes posix = Files.readAttributes(file, PosixFileAttributes.class);
        assertThat(posix.permissions())
                .containsExactlyInAnyOrder(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.GROUP_READ);
        assertThat(Files.getLastModifiedTime(file).toInstant()).isEqualTo(time);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(posix.permissions());
        Map<String, Object> map = Files.readAttributes(file, "posix:size,permissions,isDirectory");
        assertThat(map).containsEntry("size", 12_345L).containsEntry("isDirectory", false);
        assertThat(map.get("permissions")).isEqualTo(posix.permissions());
        assertThat(Files.readAttributes(dir, BasicFileAttributes.class).isDirectory())
                .isTrue();
        assertThat(Files.isRegularFile(file)).isTrue();
        assertThat(Files.isDirectory(dir)).isTrue();
        assertThat(Files.isReadable(file)).isTrue();
        assertThatThrownBy(() -> Files.readAttributes(dir.resolve("nope"), BasicFileAttributes.class))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.setLastModifiedTime(dir.resolve("nope"), FileTime.from(time)))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void directoriesAreCreatedOnceAndOnlyUnderAParent() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertThat(Files.isDirectory(sub)).isTrue();
        assertThatThrownBy(() -> Files.createDirectory(sub)).isInstanceOf(FileAlreadyExistsException.class);
        Path file = Files.writeString(dir.resolve("file"), "f");
        assertThatThrownBy(() -> Files.createDirectory(file)).isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> Files.createDirectory(dir.resolve("no").resolve("such")))
                .isInstanceOf(NoSuchFileException.class);
        Path deep = Files.createDirectories(dir.resolve("x/y/z"));
        assertThat(Files.isDirectory(deep)).isTrue();
        assertThat(Files.createDirectories(deep)).isEqualTo(deep);
        assertThat(local(deep)).isDirectory();
    }

    @Test
    void deleteRemovesFilesAndEmptyDirectoriesOnly() throws IOException {
        Path file = Files.writeString(dir.resolve("gone.txt"), "x");
        Files.delete(file);
        assertThat(Files.exists(file)).isFalse();
        assertThat(local(file)).doesNotExist();
        assertThatThrownBy(() -> Files.delete(file)).isInstanceOf(NoSuchFileException.class);
        assertThat(Files.deleteIfExists(file)).isFalse();
        Path full = Files.createDirectory(dir.resolve("full"));
        Files.writeString(full.resolve("inside"), "i");
        assertThatThrownBy(() -> Files.delete(full)).isInstanceOf(DirectoryNotEmptyException.class);
        assertThat(Files.exists(full.resolve("inside"))).isTrue();
        Files.delete(full.resolve("inside"));
        Files.delete(full);
        assertThat(Files.exists(full)).isFalse();
    }

    @Test
    void moveRenamesAndReplacesOnlyWhenAsked() throws IOException {
        Path a = Files.writeString(dir.resolve("a"), "first");
        Path b = dir.resolve("b");
        Files.move(a, b);
        assertThat(Files.exists(a)).isFalse();
        assertThat(Files.readString(b)).isEqualTo("first");
        Path c = Files.writeString(dir.resolve("c"), "second");
        assertThatThrownBy(() -> Files.move(c, b)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(b)).isEqualTo("first");
        Files.move(c, b, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.readString(b)).isEqualTo("second");
        assertThat(Files.exists(c)).isFalse();
        Path tree = Files.createDirectories(dir.resolve("tree/inner"));
        Files.writeString(tree.resolve("leaf"), "leaf");
        Files.move(dir.resolve("tree"), dir.resolve("moved tree"));
        assertThat(Files.readString(dir.resolve("moved tree/inner/leaf"))).isEqualTo("leaf");
        assertThatThrownBy(() -> Files.move(dir.resolve("nothing"), dir.resolve("x")))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void copyCopiesWithinAndAcrossFileSystems() throws IOException {
        byte[] data = bytes(1_200_000, 8);
        Path source = Files.write(dir.resolve("source.bin"), data);
        Path copy = dir.resolve("copy.bin");
        Files.copy(source, copy);
        assertThat(Files.readAllBytes(copy)).isEqualTo(data);
        assertThat(local(copy)).hasBinaryContent(data);
        Files.writeString(dir.resolve("other"), "other");
        assertThatThrownBy(() -> Files.copy(dir.resolve("other"), copy)).isInstanceOf(FileAlreadyExistsException.class);
        Files.copy(dir.resolve("other"), copy, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.readString(copy)).isEqualTo("other");
        Path elsewhere = Files.createTempFile("ferry-nio-contract", ".bin");
        try {
            Files.copy(source, elsewhere, StandardCopyOption.REPLACE_EXISTING); // to the default file system
            assertThat(elsewhere).hasBinaryContent(data);
            Path back = dir.resolve("back.bin");
            Files.copy(elsewhere, back); // and back again
            assertThat(Files.readAllBytes(back)).isEqualTo(data);
        } finally {
            Files.deleteIfExists(elsewhere);
        }
        Path subdir = Files.createDirectory(dir.resolve("subdir"));
        Files.writeString(subdir.resolve("inside"), "i");
        Files.copy(subdir, dir.resolve("subdir copy"));
        assertThat(Files.isDirectory(dir.resolve("subdir copy"))).isTrue();
        try (Stream<Path> entries = Files.list(dir.resolve("subdir copy"))) {
            assertThat(entries).isEmpty(); // the JDK copies a directory without its entries
        }
        assertThatThrownBy(() -> Files.copy(dir.resolve("absent"), dir.resolve("y")))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void namesWithSpacesUtf8AndPercentSurviveEveryOperation() throws IOException {
        List<String> names = awkwardNames().subList(1, awkwardNames().size());
        Path odd = Files.createDirectory(dir.resolve(awkwardNames().get(0)));
        for (String name : names) {
            byte[] data = (name + " content").getBytes(StandardCharsets.UTF_8);
            Path file = odd.resolve(name);
            Files.write(file, data);
            assertThat(Files.readAllBytes(file)).isEqualTo(data);
            assertThat(local(file)).hasBinaryContent(data);
            assertThat(file.getFileName().toString()).isEqualTo(name);
            URI uri = file.toUri();
            assertThat(uri.getRawPath()).doesNotContain(" ");
            assertThat(Path.of(uri)).isEqualTo(file);
            assertThat(Path.of(URI.create(uri.toASCIIString()))).isEqualTo(file);
        }
        try (Stream<Path> entries = Files.list(odd)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(names);
        }
        String last = names.get(names.size() - 1);
        Path renamed = odd.resolve("renamed 100% " + last);
        Files.move(odd.resolve(last), renamed);
        assertThat(Files.readString(renamed)).isEqualTo(last + " content");
        try (Stream<Path> walk = Files.walk(dir)) {
            assertThat(walk.filter(Files::isRegularFile).count()).isEqualTo(names.size());
        }
        assertThat(local(odd)).isDirectory();
    }

    @Test
    void concurrentChannelsOnOneFileSystemEachSeeTheirOwnBytes() throws Exception {
        byte[] shared = bytes(2_000_000, 9);
        Path sharedFile = Files.write(dir.resolve("shared.bin"), shared);
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                results.add(pool.submit((Callable<Void>) () -> {
                    byte[] own = bytes(700_000 + id, 100 + id);
                    Path mine = dir.resolve("own-" + id + ".bin");
                    Files.write(mine, own);
                    SplittableRandom random = new SplittableRandom(id);
                    try (SeekableByteChannel channel = Files.newByteChannel(sharedFile)) {
                        for (int i = 0; i < 10; i++) {
                            int position = random.nextInt(shared.length - 50_000);
                            ByteBuffer buffer = ByteBuffer.allocate(50_000);
                            channel.position(position);
                            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                                // partial reads
                            }
                            assertThat(buffer.array())
                                    .isEqualTo(java.util.Arrays.copyOfRange(shared, position, position + 50_000));
                        }
                    }
                    assertThat(Files.readAllBytes(mine)).isEqualTo(own);
                    return null;
                }));
            }
            for (Future<Void> result : results) {
                result.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.count()).isEqualTo(threads + 1);
        }
    }

    @Test
    void pathsCompareResolveAndFindTheirStore() throws IOException {
        Path file = Files.writeString(dir.resolve("same.txt"), "s");
        assertThat(Files.isSameFile(file, dir.resolve("./same.txt").normalize()))
                .isTrue();
        Path other = Files.writeString(dir.resolve("other.txt"), "s");
        assertThat(Files.isSameFile(file, other)).isFalse();
        assertThat(Files.isHidden(dir.resolve(".hidden"))).isTrue();
        assertThat(Files.isHidden(file)).isFalse();
        assertThat(file.toRealPath()).isEqualTo(file.toAbsolutePath().normalize());
        assertThatThrownBy(() -> dir.resolve("ghost").toRealPath()).isInstanceOf(NoSuchFileException.class);
        FileStore store = Files.getFileStore(file);
        assertThat(store.name()).isNotNull();
        assertThat(store.isReadOnly()).isFalse();
        assertThat(file.getFileSystem().getRootDirectories()).hasSize(1);
        assertThat(dir.getFileSystem().getSeparator()).isEqualTo("/");
    }
}
