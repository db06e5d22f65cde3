package org.ferry.mover.nio;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.spi.FileSystemProvider;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.protocol.FileInfo;

/**
 * The JDK's {@code Files} API over GridFTP (seed 004, the Globus XIO GridFTP driver: file-like
 * access with partial transfers, parallel streams and cached connections underneath). One provider
 * per URI scheme, installed through {@code META-INF/services}: {@link FtpFileSystemProvider}
 * ({@code ftp://}, USER/PASS), {@link GsiFtpFileSystemProvider} ({@code gsiftp://}, GSI),
 * {@link SshFtpFileSystemProvider} ({@code sshftp://}, the control channel over SSH); a scheme
 * plugs in by subclassing with its {@link SessionFactory}. So
 * {@code Path.of(URI.create("gsiftp://host:2811/data/run1/x.h5"))} is a path every {@code Files}
 * method takes; its file system is made on first use with the settings from the environment, or
 * beforehand with {@link java.nio.file.FileSystems#newFileSystem(URI, Map)} and an {@code env} map
 * (keys: the constants of this class). One file system per (scheme, user, host, port).
 *
 * <p>What each operation sends (RFC 959, RFC 3659, GFD.020):
 *
 * <ul>
 *   <li>reading ({@code newByteChannel}, {@code newInputStream}): MLST, then {@code ERET P} windows
 *       over MODE E with read-ahead ({@link GridFtpReadChannel});
 *   <li>writing ({@code newOutputStream}, {@code newByteChannel} with WRITE): an empty {@code STOR}
 *       where the options create or truncate, then {@code ESTO A} windows ({@link GridFtpWriteChannel});
 *   <li>{@code newDirectoryStream}, {@code Files.walk}: MLSD, one per directory;
 *   <li>{@code readAttributes}, {@code checkAccess}: MLST (the {@code Perm} fact decides access);
 *   <li>{@code createDirectory}: MKD; {@code delete}: MLST, then DELE or RMD;
 *       {@code move}: RNFR/RNTO; {@code copy} on one scheme: a third-party transfer in MODE E when both
 *       servers speak it, else the bytes stream through this JVM;
 *   <li>{@code setLastModifiedTime}: MFMT or SITE UTIME; {@code setPosixFilePermissions}: SITE CHMOD.
 * </ul>
 *
 * <p>Errors are the JDK's ({@link NoSuchFileException}, {@link AccessDeniedException},
 * {@link FileAlreadyExistsException}, {@link DirectoryNotEmptyException},
 * {@link NotDirectoryException}, {@link java.nio.channels.ClosedChannelException}, ...) with the
 * server's reply as the reason; a lost connection or a timeout is a plain {@link IOException}.
 * Symbolic links are the server's business (it follows them); {@link LinkOption#NOFOLLOW_LINKS} is
 * accepted and changes nothing.
 */
public abstract class GridFtpFileSystemProvider extends FileSystemProvider {

    /** {@code env} key: the user to log in as (a URI's user info wins). */
    public static final String USER = "user";
    /** {@code env} key: the password for {@code ftp://} (a URI's user info wins); anonymous logins send {@code globus@}. */
    public static final String PASSWORD = "password";
    /** {@code env} key: MODE E data connections per transfer, 1..64 (default 4). */
    public static final String PARALLELISM = "parallelism";
    /** {@code env} key: sessions open at once to the server, at least 2 (default 8); an open channel holds one. */
    public static final String MAX_SESSIONS = "maxSessions";
    /** {@code env} key: seconds to wait for a reply, a free session or a silent data channel (default 120). */
    public static final String REPLY_TIMEOUT_SECONDS = "replyTimeoutSeconds";
    /** {@code env} key: the largest window one partial retrieve fetches, bytes (default 32 MiB). */
    public static final String READ_WINDOW_BYTES = "readWindowBytes";
    /** {@code env} key: windows fetched ahead of a sequential reader, 0..16 (default 2). */
    public static final String READ_AHEAD_WINDOWS = "readAheadWindows";
    /** {@code env} key: bytes a writing channel gathers before it sends them (default 8 MiB). */
    public static final String WRITE_BUFFER_BYTES = "writeBufferBytes";
    /**
     * {@code env} key: a {@link org.ferry.mover.client.GsiClientSecurity} for {@code gsiftp://};
     * without it the proxy is read from {@code X509_USER_PROXY} or {@code /tmp/x509up_u<uid>} and the
     * trusted CAs from {@code X509_CERT_DIR} or {@code /etc/grid-security/certificates} (the {@code env}
     * map may name both under those keys).
     */
    public static final String GSI = "gsi";
    /**
     * {@code env} key: an {@link org.ferry.mover.client.SshftpSecurity} for {@code sshftp://} (host
     * keys, login keys, remote command); without it, what the {@code ssh} command would use.
     */
    public static final String SSH = "ssh";

    private final String scheme;
    private final Map<FileSystemKey, GridFtpFileSystem> fileSystems = new HashMap<>();

    /** @param scheme the URI scheme this provider serves, e.g. {@code gsiftp} */
    protected GridFtpFileSystemProvider(String scheme) {
        this.scheme = scheme;
    }

    /**
     * The sessions of a new file system: what the scheme adds.
     *
     * @param key the server and user
     * @param settings from the {@code env} map
     * @param client the file system's client (event loop, reply timeout)
     * @return how sessions are opened, and what to close with the file system (may be null)
     * @throws IOException if the scheme's material cannot be prepared
     */
    abstract Sessions sessions(FileSystemKey key, FileSystemSettings settings, GridFtpClient client) throws IOException;

    /**
     * A file system's session factory and what it must close at the end.
     *
     * @param factory opens sessions
     * @param resources closed with the file system, or null
     */
    record Sessions(SessionFactory factory, Closeable resources) {}

    @Override
    public final String getScheme() {
        return scheme;
    }

    // ---- file systems ----

    /**
     * @param uri {@code scheme://[user[:password]@]host[:port][/...]}; the path is ignored
     * @param env settings (keys: this class's constants), may be empty
     * @throws FileSystemAlreadyExistsException if one is open for the same key
     * @throws IllegalArgumentException on a wrong scheme, no host, or a bad setting
     */
    @Override
    public GridFtpFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        FileSystemKey key = keyOf(uri);
        synchronized (fileSystems) {
            if (fileSystems.containsKey(key)) {
                throw new FileSystemAlreadyExistsException(key.toString());
            }
            GridFtpFileSystem fileSystem = create(key, uri, env);
            fileSystems.put(key, fileSystem);
            return fileSystem;
        }
    }

    private GridFtpFileSystem create(FileSystemKey key, URI uri, Map<String, ?> env) throws IOException {
        String password = null;
        String userInfo = uri.getUserInfo();
        if (userInfo != null && userInfo.indexOf(':') >= 0) {
            password = userInfo.substring(userInfo.indexOf(':') + 1);
        }
        FileSystemSettings settings = FileSystemSettings.of(env, key.user(), password);
        GridFtpClient client = new GridFtpClient(settings.replyTimeout(), null, daemonThreads(key));
        try {
            Sessions sessions = sessions(key, settings, client);
            return new GridFtpFileSystem(this, key, settings, client, sessions.factory(), sessions.resources());
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private static ThreadFactory daemonThreads(FileSystemKey key) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(
                    runnable, "gridftp-nio " + key.host() + ":" + key.port() + " #" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private FileSystemKey keyOf(URI uri) {
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("not a " + scheme + ":// URI: " + uri);
        }
        if (uri.isOpaque()) {
            throw new IllegalArgumentException("a " + scheme + ":// URI needs a host: " + uri);
        }
        return FileSystemKey.of(uri);
    }

    /** @throws FileSystemNotFoundException if no file system is open for the URI's key */
    @Override
    public GridFtpFileSystem getFileSystem(URI uri) {
        FileSystemKey key = keyOf(uri);
        synchronized (fileSystems) {
            GridFtpFileSystem fileSystem = fileSystems.get(key);
            if (fileSystem == null) {
                throw new FileSystemNotFoundException(key.toString());
            }
            return fileSystem;
        }
    }

    /**
     * The path a URI names, its percent-encoding decoded once (so {@code %20} is a space and
     * {@code %25} a {@code %}); the file system is made with settings from the environment (and the
     * URI's user info) if none is open for the key.
     *
     * @throws IllegalArgumentException if the URI is not of this scheme, has no host, or has a
     *     query or fragment
     */
    @Override
    public Path getPath(URI uri) {
        FileSystemKey key = keyOf(uri);
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a " + scheme + ":// path has no query or fragment: " + uri);
        }
        GridFtpFileSystem fileSystem;
        synchronized (fileSystems) {
            fileSystem = fileSystems.get(key);
            if (fileSystem == null) {
                try {
                    fileSystem = create(key, uri, Map.of());
                } catch (IOException e) {
                    throw new FileSystemNotFoundException(key + ": " + e.getMessage());
                }
                fileSystems.put(key, fileSystem);
            }
        }
        String path = uri.getPath();
        return fileSystem.getPath(path == null || path.isEmpty() ? "/" : path);
    }

    void forget(GridFtpFileSystem fileSystem) {
        synchronized (fileSystems) {
            fileSystems.remove(fileSystem.key(), fileSystem);
        }
    }

    private static GridFtpPath remote(Path path) {
        if (path == null) {
            throw new NullPointerException("path");
        }
        if (!(path instanceof GridFtpPath p)) {
            throw new ProviderMismatchException(
                    "not a GridFTP path: " + path.getClass().getName());
        }
        p.getFileSystem().ensureOpen();
        return p;
    }

    /**
     * @return the absolute, normalized path to send in a command
     * @throws FileSystemException if the server would receive another name
     *     ({@link GridFtpFileSystem#checkSendable})
     */
    private static String commandPath(GridFtpPath path) throws IOException {
        String server = path.absoluteServerPath();
        path.getFileSystem().checkSendable(server);
        return server;
    }

    // ---- attributes ----

    /**
     * MLST of a path, or the facts its directory listing gave (once, when {@code listed} allows).
     *
     * @throws NoSuchFileException if the path does not exist
     */
    GridFtpFileAttributes stat(GridFtpPath path, boolean listed) throws IOException {
        if (listed) {
            GridFtpFileAttributes attributes = path.takeListedAttributes();
            if (attributes != null) {
                return attributes;
            }
        }
        String server = commandPath(path);
        try {
            FileInfo info = path.getFileSystem().query(session -> session.stat(server));
            return new GridFtpFileAttributes(info);
        } catch (IOException e) {
            throw ReplyErrors.translate(e, path.toString());
        }
    }

    /** @return the attributes, or null if the path does not exist */
    private GridFtpFileAttributes statIfExists(GridFtpPath path) throws IOException {
        try {
            return stat(path, false);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (type != BasicFileAttributes.class
                && type != PosixFileAttributes.class
                && type != GridFtpFileAttributes.class) {
            throw new UnsupportedOperationException("no attributes of " + type.getName());
        }
        return (A) stat(remote(path), true);
    }

    /**
     * @param attributes {@code [view:]name,name} or {@code [view:]*}; views {@code basic},
     *     {@code posix}, {@code owner}
     */
    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        if (!view.equals("basic") && !view.equals("posix") && !view.equals("owner")) {
            throw new UnsupportedOperationException("no attribute view " + view);
        }
        Map<String, Object> all = stat(remote(path), true).asMap(!view.equals("basic"));
        if (view.equals("owner")) {
            return new LinkedHashMap<>(Map.of("owner", all.get("owner")));
        }
        if (names.equals("*")) {
            return all;
        }
        Map<String, Object> wanted = new LinkedHashMap<>();
        for (String name : names.split(",")) {
            if (name.equals("*")) {
                wanted.putAll(all);
            } else if (all.containsKey(name)) {
                wanted.put(name, all.get(name));
            } else {
                throw new IllegalArgumentException("no attribute " + view + ":" + name);
            }
        }
        return wanted;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        GridFtpPath remote = remote(path);
        if (type == BasicFileAttributeView.class) {
            return (V) new GridFtpFileAttributeView(remote, "basic");
        }
        if (type == PosixFileAttributeView.class) {
            return (V) new GridFtpFileAttributeView(remote, "posix");
        }
        if (type == FileOwnerAttributeView.class) {
            return (V) new GridFtpFileAttributeView(remote, "owner");
        }
        return null;
    }

    /**
     * Sets {@code lastModifiedTime} (basic/posix) or {@code permissions} (posix).
     *
     * @throws UnsupportedOperationException for any other attribute
     */
    @Override
    @SuppressWarnings("unchecked")
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        GridFtpPath remote = remote(path);
        String name = attribute.indexOf(':') < 0 ? attribute : attribute.substring(attribute.indexOf(':') + 1);
        switch (name) {
            case "lastModifiedTime" -> setModifiedTime(remote, (FileTime) value);
            case "permissions" -> setPermissions(remote, (Set<PosixFilePermission>) value);
            default -> throw new UnsupportedOperationException("cannot set " + attribute + " over GridFTP");
        }
    }

    void setModifiedTime(GridFtpPath path, FileTime time) throws IOException {
        String server = commandPath(path);
        GridFtpReplyException[] refused = path.getFileSystem()
                .withSession(session -> session.setModifiedTimes(List.of(server), List.of(time.toInstant())));
        if (refused[0] != null) {
            throw ReplyErrors.translate(refused[0], path.toString());
        }
    }

    void setPermissions(GridFtpPath path, Set<PosixFilePermission> permissions) throws IOException {
        String server = commandPath(path);
        int mode = GridFtpFileAttributes.mode(permissions);
        try {
            path.getFileSystem().withSession(session -> {
                session.changeMode(server, mode);
                return null;
            });
        } catch (IOException e) {
            throw ReplyErrors.translate(e, path.toString());
        }
    }

    /**
     * MLST; each mode is checked against the {@code Perm} fact (RFC 3659 section 7.5.5) when the
     * server sends one: READ needs {@code r} (a file) or {@code l}/{@code e} (a directory), WRITE
     * {@code w}/{@code a} (a file) or {@code c}/{@code m} (a directory), EXECUTE {@code e} (a
     * directory; a file's execute bit from {@code UNIX.mode} for its owner). Without the fact the
     * path's existence is all that is checked: the server decides at the next command.
     *
     * @throws NoSuchFileException if the path does not exist
     * @throws AccessDeniedException if a mode is refused
     */
    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        GridFtpPath remote = remote(path);
        GridFtpFileAttributes attributes = stat(remote, false);
        String perm = attributes.perm();
        if (perm == null) {
            return;
        }
        boolean directory = attributes.isDirectory();
        for (AccessMode mode : modes) {
            boolean allowed = switch (mode) {
                case READ -> directory ? has(perm, "le") : has(perm, "r");
                case WRITE -> directory ? has(perm, "cm") : has(perm, "wa");
                case EXECUTE ->
                    directory ? has(perm, "e") : attributes.permissions().contains(PosixFilePermission.OWNER_EXECUTE);
            };
            if (!allowed) {
                throw new AccessDeniedException(
                        remote.toString(), null, mode + " refused: the server's Perm fact is '" + perm + "'");
            }
        }
    }

    private static boolean has(String perm, String anyOf) {
        for (char c : anyOf.toCharArray()) {
            if (perm.indexOf(c) >= 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        GridFtpPath remote = remote(path);
        stat(remote, false); // the JDK's contract: NoSuchFileException for a missing path
        return remote.getFileSystem().store();
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        if (path.equals(path2)) {
            return true;
        }
        if (!(path2 instanceof GridFtpPath other) || !(path instanceof GridFtpPath one)) {
            return false;
        }
        if (!one.getFileSystem().equals(other.getFileSystem())) {
            return false;
        }
        if (one.absoluteServerPath().equals(other.absoluteServerPath())) {
            return true;
        }
        Object key = stat(one, false).fileKey();
        return key != null && key.equals(stat(other, false).fileKey());
    }

    /** @return whether the name starts with a dot, as on Unix */
    @Override
    public boolean isHidden(Path path) {
        Path name = remote(path).getFileName();
        return name != null && name.toString().startsWith(".");
    }

    // ---- channels and streams ----

    /**
     * A channel for reading (no WRITE/APPEND) or writing (WRITE or APPEND), not both.
     *
     * @throws NoSuchFileException if the file is missing (and CREATE or CREATE_NEW were not given)
     * @throws FileAlreadyExistsException for CREATE_NEW on an existing file
     * @throws FileSystemException if the path is a directory
     * @throws UnsupportedOperationException for READ with WRITE
     * @throws IllegalArgumentException for APPEND with READ or TRUNCATE_EXISTING
     */
    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        GridFtpPath remote = remote(path);
        boolean write = options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND);
        if (!write) {
            return openForReading(remote, false);
        }
        if (options.contains(StandardOpenOption.READ)) {
            throw new UnsupportedOperationException("a GridFTP channel reads or writes, not both");
        }
        return openForWriting(remote, options, attrs);
    }

    /** As {@link #newByteChannel}, reading ahead from the first byte ({@link GridFtpReadChannel}). */
    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        for (OpenOption option : options) {
            if (option == StandardOpenOption.APPEND || option == StandardOpenOption.WRITE) {
                throw new UnsupportedOperationException("'" + option + "' not allowed");
            }
        }
        return Channels.newInputStream(openForReading(remote(path), true));
    }

    /** A session leased for a channel, and what MLST said of the channel's file (null: missing). */
    private record Opened(SessionPool.Lease lease, FileInfo info) {}

    /**
     * Leases the session a channel will hold and asks MLST of its file there; as
     * {@link GridFtpFileSystem#query}, once more on a new session if a session from the pool turns
     * out dead.
     */
    private static Opened leaseAndStat(GridFtpFileSystem fileSystem, String server) throws IOException {
        for (int attempt = 0; ; attempt++) {
            SessionPool.Lease lease = fileSystem.sessions().lease();
            try {
                try {
                    return new Opened(lease, lease.session().stat(server));
                } catch (NoSuchFileException e) {
                    return new Opened(lease, null);
                }
            } catch (IOException e) {
                lease.failed(e);
                lease.close();
                if (attempt > 0 || GridFtpFileSystem.isReply(e) || !lease.reused()) {
                    throw e;
                }
                fileSystem.sessions().dropIdle();
            } catch (RuntimeException e) {
                lease.failed(e);
                lease.close();
                throw e;
            }
        }
    }

    private SeekableByteChannel openForReading(GridFtpPath path, boolean sequential) throws IOException {
        GridFtpFileSystem fileSystem = path.getFileSystem();
        String server = commandPath(path);
        Opened opened = leaseAndStat(fileSystem, server);
        SessionPool.Lease lease = opened.lease();
        try {
            FileInfo info = opened.info();
            if (info == null) {
                throw new NoSuchFileException(path.toString());
            }
            if (info.type() == FileInfo.Type.DIRECTORY || info.type() == FileInfo.Type.CURRENT_DIRECTORY) {
                throw new FileSystemException(path.toString(), null, "Is a directory");
            }
            return new GridFtpReadChannel(fileSystem, server, lease, info.sizeBytes(), sequential);
        } catch (IOException e) {
            if (!(e instanceof FileSystemException)) {
                lease.failed(e);
            }
            lease.close();
            throw ReplyErrors.translate(e, path.toString());
        } catch (RuntimeException e) {
            lease.failed(e);
            lease.close();
            throw e;
        }
    }

    private SeekableByteChannel openForWriting(
            GridFtpPath path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
        boolean append = options.contains(StandardOpenOption.APPEND);
        boolean truncate = options.contains(StandardOpenOption.TRUNCATE_EXISTING);
        boolean createNew = options.contains(StandardOpenOption.CREATE_NEW);
        boolean create = createNew || options.contains(StandardOpenOption.CREATE);
        if (append && truncate) {
            throw new IllegalArgumentException("APPEND and TRUNCATE_EXISTING together");
        }
        GridFtpFileSystem fileSystem = path.getFileSystem();
        String server = commandPath(path);
        Opened opened = leaseAndStat(fileSystem, server);
        SessionPool.Lease lease = opened.lease();
        try {
            GridFtpSession session = lease.session();
            FileInfo info = opened.info();
            if (info != null && createNew) {
                throw new FileAlreadyExistsException(path.toString());
            }
            if (info != null && info.type() != FileInfo.Type.FILE) {
                throw new FileSystemException(path.toString(), null, "Is a directory");
            }
            if (info == null && !create) {
                throw new NoSuchFileException(path.toString());
            }
            if (!session.offers("ESTO")) {
                throw new FileSystemException(
                        path.toString(),
                        null,
                        "the server offers no ESTO (GFD.020):" + " writing needs a GridFTP server");
            }
            if (info == null) {
                requireParentDirectory(session, path);
            }
            boolean storeAfresh = info == null || truncate;
            if (storeAfresh && attrs.length > 0) {
                // an empty STOR creates or truncates the file (RFC 959 section 4.1.3), then the
                // permissions asked for are set on it
                session.upload(
                        org.ferry.mover.data.DataSource.ofBytes(new byte[0]),
                        server,
                        -1,
                        fileSystem.settings().transferOptions(),
                        TransferListener.NONE);
                applyPermissions(session, server, attrs);
                storeAfresh = false;
            }
            long size = storeAfresh || info == null ? 0 : info.sizeBytes();
            return new GridFtpWriteChannel(fileSystem, server, lease, size, append, storeAfresh);
        } catch (IOException e) {
            if (!(e instanceof FileSystemException)) {
                lease.failed(e);
            }
            lease.close();
            throw ReplyErrors.translate(e, path.toString());
        } catch (RuntimeException e) {
            lease.failed(e);
            lease.close();
            throw e;
        }
    }

    /**
     * @throws NoSuchFileException if the path's parent does not exist (the file could not be created)
     * @throws FileSystemException if the parent is not a directory
     */
    private static void requireParentDirectory(GridFtpSession session, GridFtpPath path) throws IOException {
        GridFtpPath parent = (GridFtpPath) path.toAbsolutePath().normalize().getParent();
        if (parent == null) {
            return;
        }
        FileInfo info;
        try {
            info = session.stat(parent.serverPath());
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(path.toString(), null, "no directory " + parent + ": " + e.getReason());
        }
        if (!info.isDirectory() && info.type() != FileInfo.Type.CURRENT_DIRECTORY) {
            throw new FileSystemException(path.toString(), null, "Not a directory: " + parent);
        }
    }

    @SuppressWarnings("unchecked")
    private static void applyPermissions(GridFtpSession session, String server, FileAttribute<?>... attrs)
            throws IOException {
        for (FileAttribute<?> attr : attrs) {
            if (attr.name().equals("posix:permissions")) {
                session.changeMode(server, GridFtpFileAttributes.mode((Set<PosixFilePermission>) attr.value()));
            } else {
                throw new UnsupportedOperationException("cannot set " + attr.name() + " at creation over GridFTP");
            }
        }
    }

    // ---- directories ----

    /**
     * MLSD of the directory, read whole.
     *
     * @throws NoSuchFileException if it does not exist
     * @throws NotDirectoryException if it is not a directory
     */
    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        GridFtpPath remote = remote(dir);
        String server = commandPath(remote);
        if (!remote.listedAsDirectory()) {
            // a server may list a file as itself (globus-gridftp-server's MLSD does): ask first
            GridFtpFileAttributes attributes = stat(remote, false);
            if (!attributes.isDirectory()) {
                throw new ReplyErrors.NotADirectory(
                        remote.toString(), "MLST says " + attributes.fileInfo().type());
            }
        }
        try {
            List<FileInfo> entries = remote.getFileSystem().query(session -> session.list(server));
            return new GridFtpDirectoryStream(remote, entries, filter);
        } catch (IOException e) {
            if (e instanceof NoSuchFileException || GridFtpFileSystem.isReply(e)) {
                GridFtpFileAttributes attributes = statIfExists(remote);
                if (attributes == null) {
                    throw new NoSuchFileException(remote.toString(), null, e.getMessage());
                }
                if (!attributes.isDirectory()) {
                    throw new ReplyErrors.NotADirectory(remote.toString(), e.getMessage());
                }
            }
            throw ReplyErrors.translate(e, remote.toString());
        }
    }

    /**
     * MKD; permissions given as {@code posix:permissions} are set with SITE CHMOD afterwards.
     *
     * @throws FileAlreadyExistsException if something exists at the path
     * @throws NoSuchFileException if the parent does not exist
     */
    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        GridFtpPath remote = remote(dir);
        String server = commandPath(remote);
        try {
            remote.getFileSystem().withSession(session -> {
                session.makeDirectory(server);
                applyPermissions(session, server, attrs);
                return null;
            });
        } catch (IOException e) {
            if (GridFtpFileSystem.isReply(e)) {
                if (statIfExists(remote) != null) {
                    throw new FileAlreadyExistsException(remote.toString(), null, e.getMessage());
                }
                GridFtpPath parent =
                        (GridFtpPath) remote.toAbsolutePath().normalize().getParent();
                if (parent != null && statIfExists(parent) == null) {
                    throw new NoSuchFileException(remote.toString(), null, e.getMessage());
                }
            }
            throw ReplyErrors.translate(e, remote.toString());
        }
    }

    /**
     * MLST, then DELE for a file or RMD for a directory.
     *
     * @throws NoSuchFileException if it does not exist
     * @throws DirectoryNotEmptyException if it is a directory with entries
     */
    @Override
    public void delete(Path path) throws IOException {
        GridFtpPath remote = remote(path);
        String server = commandPath(remote);
        if (server.equals("/")) {
            throw new FileSystemException("/", null, "the root cannot be deleted");
        }
        GridFtpFileAttributes attributes = stat(remote, false);
        try {
            remote.getFileSystem().withSession(session -> {
                if (attributes.isDirectory()) {
                    session.removeDirectory(server);
                } else {
                    session.delete(server);
                }
                return null;
            });
        } catch (IOException e) {
            if (GridFtpFileSystem.isReply(e) && attributes.isDirectory()) {
                List<FileInfo> entries;
                try {
                    entries = remote.getFileSystem().query(session -> session.list(server));
                } catch (IOException listing) {
                    entries = List.of();
                }
                if (!entries.isEmpty()) {
                    throw new ReplyErrors.NotEmpty(remote.toString(), e.getMessage());
                }
            }
            throw ReplyErrors.translate(e, remote.toString());
        }
    }

    // ---- copy and move ----

    /**
     * Copies within this scheme. A file goes server to server (a third-party transfer in MODE E,
     * GFD.020, RFC 959 section 5.2) when both servers speak MODE E, else through this JVM; a
     * directory is created empty (the JDK's contract). Copies between schemes or to and from the
     * default file system are the JDK's (streams of this provider).
     *
     * @throws NoSuchFileException if the source does not exist
     * @throws FileAlreadyExistsException if the target exists and REPLACE_EXISTING was not given
     * @throws DirectoryNotEmptyException if REPLACE_EXISTING would replace a directory with entries
     * @throws UnsupportedOperationException for ATOMIC_MOVE
     */
    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        GridFtpPath from = remote(source);
        GridFtpPath to = remote(target);
        Set<CopyOption> set = new HashSet<>(Arrays.asList(options));
        if (set.contains(StandardCopyOption.ATOMIC_MOVE)) {
            throw new UnsupportedOperationException("ATOMIC_MOVE is an option of move, not copy");
        }
        GridFtpFileAttributes attributes = stat(from, false);
        if (statIfExists(to) != null && isSameFile(from, to)) {
            return;
        }
        prepareTarget(to, set.contains(StandardCopyOption.REPLACE_EXISTING));
        if (attributes.isDirectory()) {
            createDirectory(to);
        } else {
            copyFile(from, to);
        }
        if (set.contains(StandardCopyOption.COPY_ATTRIBUTES)) {
            setModifiedTime(to, attributes.lastModifiedTime());
        }
    }

    /** Refuses an existing target, or deletes it for REPLACE_EXISTING. */
    private void prepareTarget(GridFtpPath target, boolean replace) throws IOException {
        if (statIfExists(target) != null) {
            if (!replace) {
                throw new FileAlreadyExistsException(target.toString());
            }
            delete(target);
        }
    }

    private void copyFile(GridFtpPath from, GridFtpPath to) throws IOException {
        GridFtpFileSystem source = from.getFileSystem();
        GridFtpFileSystem destination = to.getFileSystem();
        String fromServer = commandPath(from);
        String toServer = commandPath(to);
        try (SessionPool.Lease out = source.sessions().lease();
                SessionPool.Lease in = destination.sessions().lease()) {
            if (out.session().supportsExtendedBlockMode() && in.session().supportsExtendedBlockMode()) {
                try {
                    out.session()
                            .sendTo(
                                    fromServer,
                                    in.session(),
                                    toServer,
                                    source.settings().transferOptions(),
                                    TransferListener.NONE);
                    return;
                } catch (IOException e) {
                    out.failed(e);
                    in.failed(e);
                    throw ReplyErrors.translate(e, from.toString(), to.toString());
                } catch (RuntimeException e) {
                    out.failed(e);
                    in.failed(e);
                    throw e;
                }
            }
        }
        streamCopy(from, to);
    }

    private void streamCopy(GridFtpPath from, GridFtpPath to) throws IOException {
        try (InputStream in = newInputStream(from);
                java.io.OutputStream out = newOutputStream(to)) {
            in.transferTo(out);
        }
    }

    /**
     * Renames on one server with RNFR/RNTO (RFC 959 section 4.1.3); between servers of this scheme,
     * copies and deletes.
     *
     * @throws NoSuchFileException if the source does not exist
     * @throws FileAlreadyExistsException if the target exists and REPLACE_EXISTING was not given
     * @throws AtomicMoveNotSupportedException for ATOMIC_MOVE between servers
     */
    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        GridFtpPath from = remote(source);
        GridFtpPath to = remote(target);
        Set<CopyOption> set = new HashSet<>(Arrays.asList(options));
        boolean atomic = set.contains(StandardCopyOption.ATOMIC_MOVE);
        if (!from.getFileSystem().equals(to.getFileSystem())) {
            if (atomic) {
                throw new AtomicMoveNotSupportedException(
                        from.toString(), to.toString(), "different servers: no rename between them");
            }
            copy(from, to, withAttributes(options));
            delete(from);
            return;
        }
        String fromServer = commandPath(from);
        String toServer = commandPath(to);
        if (!atomic) {
            stat(from, false);
            if (fromServer.equals(toServer)) {
                return;
            }
            prepareTarget(to, set.contains(StandardCopyOption.REPLACE_EXISTING));
        }
        try {
            from.getFileSystem().withSession(session -> {
                session.rename(fromServer, toServer);
                return null;
            });
        } catch (IOException e) {
            throw ReplyErrors.translate(e, from.toString(), to.toString());
        }
    }

    private static CopyOption[] withAttributes(CopyOption... options) {
        Set<CopyOption> set = new HashSet<>(Arrays.asList(options));
        set.add(StandardCopyOption.COPY_ATTRIBUTES);
        return set.toArray(new CopyOption[0]);
    }

    /** @throws UnsupportedOperationException always: a GridFTP file system is named by a URI */
    @Override
    public FileSystem newFileSystem(Path path, Map<String, ?> env) {
        throw new UnsupportedOperationException("a GridFTP file system is named by a URI, not a path");
    }
}
