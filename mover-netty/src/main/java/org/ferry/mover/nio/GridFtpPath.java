package org.ferry.mover.nio;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A path on a GridFTP server: a Unix-style path whose string form is the path the server is sent
 * (RFC 959 section 3.2 pathnames, as globus-url-copy sends them: {@code /} separated, absolute from
 * the server's root), held decoded. Behaves as the JDK's Unix paths do: redundant slashes and a
 * trailing slash are dropped, {@code .} and {@code ..} stay until {@link #normalize()}, the empty
 * path has one empty name. A relative path resolves against {@code /} ({@link #toAbsolutePath()}),
 * which is where globus-url-copy's paths start too. Immutable; one attached attribute set from a
 * directory listing is handed out once ({@link #takeListedAttributes()}).
 *
 * <p>Names may hold any character but NUL, CR and LF (which FTP cannot carry in a command line):
 * spaces, UTF-8 and {@code %} are kept as they are. {@link #toUri()} percent-encodes them once;
 * {@link GridFtpFileSystemProvider#getPath(URI)} decodes once.
 */
public final class GridFtpPath implements Path {

    private final GridFtpFileSystem fileSystem;
    private final String path;
    private volatile int[] offsets; // start of each name, computed on first use
    private final AtomicReference<GridFtpFileAttributes> listed = new AtomicReference<>();
    private volatile boolean listedAsDirectory;

    GridFtpPath(GridFtpFileSystem fileSystem, String input) {
        this.fileSystem = Objects.requireNonNull(fileSystem, "fileSystem");
        this.path = normalizeSlashes(input);
    }

    private GridFtpPath(GridFtpFileSystem fileSystem, String normalized, boolean alreadyNormalized) {
        this.fileSystem = fileSystem;
        this.path = normalized;
    }

    /** Drops repeated and trailing slashes; refuses NUL, CR and LF. */
    private static String normalizeSlashes(String input) {
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            if (c == '\0' || c == '\r' || c == '\n') {
                throw new InvalidPathException(
                        input.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0"),
                        "NUL, CR and LF cannot be sent in an FTP command",
                        i);
            }
        }
        StringBuilder out = new StringBuilder(input.length());
        char previous = 0;
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            if (c == '/' && previous == '/') {
                continue;
            }
            out.append(c);
            previous = c;
        }
        if (out.length() > 1 && out.charAt(out.length() - 1) == '/') {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    /** @return the path as the server is sent it (absolute or not, as given) */
    String serverPath() {
        return path;
    }

    /** @return the absolute, normalized path as the server is sent it */
    String absoluteServerPath() {
        return ((GridFtpPath) toAbsolutePath().normalize()).path;
    }

    /**
     * Attaches the attributes a directory listing gave this path (MLSD facts), for one later
     * {@code readAttributes} without a round trip: what {@code Files.walk} asks of each entry.
     */
    void attachListedAttributes(GridFtpFileAttributes attributes) {
        listed.set(attributes);
        listedAsDirectory = attributes.isDirectory();
    }

    /** @return whether the listing this path came from said it is a directory (kept, unlike the attributes) */
    boolean listedAsDirectory() {
        return listedAsDirectory;
    }

    /** @return the attributes from the listing this path came from, once; null afterwards */
    GridFtpFileAttributes takeListedAttributes() {
        return listed.getAndSet(null);
    }

    private int[] offsets() {
        int[] result = offsets;
        if (result == null) {
            List<Integer> starts = new ArrayList<>();
            if (path.isEmpty()) {
                starts.add(0); // the empty path has one (empty) name
            } else {
                int i = 0;
                while (i < path.length()) {
                    if (path.charAt(i) == '/') {
                        i++;
                        continue;
                    }
                    starts.add(i);
                    while (i < path.length() && path.charAt(i) != '/') {
                        i++;
                    }
                }
            }
            result = starts.stream().mapToInt(Integer::intValue).toArray();
            offsets = result;
        }
        return result;
    }

    private String name(int index) {
        int[] starts = offsets();
        int begin = starts[index];
        int end = index + 1 < starts.length ? starts[index + 1] - 1 : path.length();
        return path.substring(begin, end);
    }

    private GridFtpPath of(String normalized) {
        return new GridFtpPath(fileSystem, normalized, true);
    }

    private GridFtpPath checked(Path other) {
        Objects.requireNonNull(other, "other");
        if (!(other instanceof GridFtpPath p)) {
            throw new ProviderMismatchException(
                    "not a GridFTP path: " + other.getClass().getName());
        }
        return p;
    }

    @Override
    public GridFtpFileSystem getFileSystem() {
        return fileSystem;
    }

    @Override
    public boolean isAbsolute() {
        return path.startsWith("/");
    }

    @Override
    public Path getRoot() {
        return isAbsolute() ? of("/") : null;
    }

    @Override
    public Path getFileName() {
        if (path.isEmpty()) {
            return this;
        }
        if (path.equals("/")) {
            return null;
        }
        return of(name(offsets().length - 1));
    }

    @Override
    public Path getParent() {
        int[] starts = offsets();
        int count = starts.length;
        if (count == 0 || path.isEmpty()) {
            return null;
        }
        int last = starts[count - 1];
        if (last <= 0) {
            return null; // a single relative name
        }
        if (last == 1) {
            return of("/");
        }
        return of(path.substring(0, last - 1));
    }

    @Override
    public int getNameCount() {
        return offsets().length;
    }

    @Override
    public Path getName(int index) {
        if (index < 0 || index >= getNameCount()) {
            throw new IllegalArgumentException("no name " + index + " in '" + path + "'");
        }
        return of(name(index));
    }

    @Override
    public Path subpath(int beginIndex, int endIndex) {
        int count = getNameCount();
        if (beginIndex < 0 || beginIndex >= count || endIndex > count || beginIndex >= endIndex) {
            throw new IllegalArgumentException(
                    "subpath(" + beginIndex + ", " + endIndex + ") of '" + path + "' with " + count + " names");
        }
        List<String> names = new ArrayList<>();
        for (int i = beginIndex; i < endIndex; i++) {
            names.add(name(i));
        }
        return of(String.join("/", names));
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        if (!path.isEmpty()) {
            for (int i = 0; i < getNameCount(); i++) {
                names.add(name(i));
            }
        }
        return names;
    }

    @Override
    public boolean startsWith(Path other) {
        if (!(Objects.requireNonNull(other, "other") instanceof GridFtpPath that)
                || !that.fileSystem.equals(fileSystem)) {
            return false;
        }
        if (that.isAbsolute() != isAbsolute()) {
            return false;
        }
        if (that.path.isEmpty()) {
            return path.isEmpty();
        }
        List<String> mine = names();
        List<String> theirs = that.names();
        return theirs.size() <= mine.size() && mine.subList(0, theirs.size()).equals(theirs);
    }

    @Override
    public boolean endsWith(Path other) {
        if (!(Objects.requireNonNull(other, "other") instanceof GridFtpPath that)
                || !that.fileSystem.equals(fileSystem)) {
            return false;
        }
        if (that.isAbsolute()) {
            return that.path.equals(path);
        }
        if (that.path.isEmpty()) {
            return path.isEmpty();
        }
        List<String> mine = names();
        List<String> theirs = that.names();
        return theirs.size() <= mine.size()
                && mine.subList(mine.size() - theirs.size(), mine.size()).equals(theirs);
    }

    @Override
    public Path normalize() {
        List<String> out = new ArrayList<>();
        for (String name : names()) {
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
                    out.remove(out.size() - 1);
                    continue;
                }
                if (isAbsolute()) {
                    continue; // "/.." is "/"
                }
            }
            out.add(name);
        }
        String joined = String.join("/", out);
        return of(isAbsolute() ? "/" + joined : joined);
    }

    @Override
    public Path resolve(Path other) {
        GridFtpPath that = checked(other);
        if (that.isAbsolute()) {
            return that;
        }
        if (that.path.isEmpty()) {
            return this;
        }
        if (path.isEmpty()) {
            return that;
        }
        return of(path.equals("/") ? "/" + that.path : path + "/" + that.path);
    }

    @Override
    public Path resolve(String other) {
        return resolve(new GridFtpPath(fileSystem, other));
    }

    /**
     * As the JDK's Unix paths: both absolute or both relative; {@code .} and {@code ..} are
     * normalized away first when either path has them; a {@code ..} left in this path's part after
     * the common prefix cannot be relativized.
     *
     * @throws IllegalArgumentException if one path is absolute and the other not, or if no
     *     relative path leads from this one to the other
     */
    @Override
    public Path relativize(Path other) {
        GridFtpPath that = checked(other);
        if (that.equals(this)) {
            return of("");
        }
        if (that.isAbsolute() != isAbsolute()) {
            throw new IllegalArgumentException("'" + other + "' cannot be relativized against '" + this + "'");
        }
        if (path.isEmpty()) {
            return that;
        }
        GridFtpPath base = this;
        GridFtpPath child = that;
        if (base.hasDots() || child.hasDots()) {
            base = (GridFtpPath) base.normalize();
            child = (GridFtpPath) child.normalize();
        }
        List<String> baseNames = base.nameList();
        List<String> childNames = child.nameList();
        int common = 0;
        while (common < baseNames.size()
                && common < childNames.size()
                && baseNames.get(common).equals(childNames.get(common))) {
            common++;
        }
        String childRest = String.join("/", childNames.subList(common, childNames.size()));
        if (common == baseNames.size()) {
            return of(childRest);
        }
        List<String> baseRest = baseNames.subList(common, baseNames.size());
        if (baseRest.contains(".") || baseRest.contains("..")) {
            throw new IllegalArgumentException("no relative path leads from '" + this + "' to '" + other + "'");
        }
        if (baseRest.size() == 1 && baseRest.get(0).isEmpty()) {
            return of(childRest);
        }
        String up = String.join("/", java.util.Collections.nCopies(baseRest.size(), ".."));
        return of(childRest.isEmpty() ? up : up + "/" + childRest);
    }

    /** @return the names, the empty path having one empty name (as {@link #getNameCount()} counts) */
    private List<String> nameList() {
        return path.isEmpty() ? List.of("") : names();
    }

    private boolean hasDots() {
        List<String> names = names();
        return names.contains(".") || names.contains("..");
    }

    /**
     * {@code scheme://[user@]host:port/path}, the path percent-encoded once (spaces, {@code %} and
     * characters outside ASCII as UTF-8 octets); never the password.
     */
    @Override
    public URI toUri() {
        FileSystemKey key = fileSystem.key();
        try {
            URI encoded = new URI(
                    key.scheme(),
                    key.user(),
                    key.host(),
                    key.port(),
                    ((GridFtpPath) toAbsolutePath()).path,
                    null,
                    null);
            return URI.create(encoded.toASCIIString());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot make a URI of " + this + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Path toAbsolutePath() {
        return isAbsolute() ? this : of(path.isEmpty() ? "/" : "/" + path);
    }

    /**
     * @return the absolute, normalized path, checked to exist on the server (links are the server's
     *     business: it resolves them)
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException if the server cannot be asked
     */
    @Override
    public Path toRealPath(LinkOption... options) throws IOException {
        GridFtpPath real = (GridFtpPath) toAbsolutePath().normalize();
        fileSystem.provider().readAttributes(real, GridFtpFileAttributes.class);
        return real;
    }

    /** @throws UnsupportedOperationException always: FTP has no change notification */
    @Override
    public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
        throw new UnsupportedOperationException("GridFTP servers send no change notifications");
    }

    @Override
    public Iterator<Path> iterator() {
        int count = getNameCount();
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Path next() {
                if (next >= count) {
                    throw new NoSuchElementException();
                }
                return getName(next++);
            }
        };
    }

    @Override
    public int compareTo(Path other) {
        return path.compareTo(checked(other).path);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GridFtpPath that && that.fileSystem.equals(fileSystem) && that.path.equals(path);
    }

    @Override
    public int hashCode() {
        return fileSystem.hashCode() * 31 + path.hashCode();
    }

    /** @return the path as the server is sent it, e.g. {@code /data/run 1/x.h5} */
    @Override
    public String toString() {
        return path;
    }
}
