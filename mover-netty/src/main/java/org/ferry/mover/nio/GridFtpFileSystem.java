package org.ferry.mover.nio;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;

/**
 * The files of one GridFTP server as one user sees them ({@link FileSystemKey}): one root
 * {@code /}, one file store, {@code /} as the separator. Owns a client (its event loop threads are
 * daemon threads, so an application that never closes the file system still exits) and a bounded
 * pool of logged-in sessions; closing the file system closes its open channels, its sessions and the
 * client. Thread-safe.
 */
public final class GridFtpFileSystem extends FileSystem {

    private final GridFtpFileSystemProvider provider;
    private final FileSystemKey key;
    private final FileSystemSettings settings;
    private final GridFtpClient client;
    private final SessionPool sessions;
    private final Closeable factoryResources;
    private final GridFtpFileStore store;
    private final Set<Closeable> openChannels = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile Boolean dropsNonAscii; // null until a name needing it is first sent

    GridFtpFileSystem(
            GridFtpFileSystemProvider provider,
            FileSystemKey key,
            FileSystemSettings settings,
            GridFtpClient client,
            SessionFactory factory,
            Closeable factoryResources) {
        this.provider = provider;
        this.key = key;
        this.settings = settings;
        this.client = client;
        this.factoryResources = factoryResources;
        this.sessions = new SessionPool(factory, settings.maxSessions(), settings.replyTimeout(), key.toString());
        this.store = new GridFtpFileStore(this);
    }

    /** @return scheme, user, host and port */
    public FileSystemKey key() {
        return key;
    }

    FileSystemSettings settings() {
        return settings;
    }

    SessionPool sessions() {
        return sessions;
    }

    GridFtpFileStore store() {
        return store;
    }

    /** One operation on a leased session. */
    interface SessionOperation<T> {
        T run(GridFtpSession session) throws IOException;
    }

    /**
     * Runs {@code operation} on a session of the pool; a failure other than the server's negative
     * reply retires the session.
     *
     * @throws IOException what the operation or the pool throws
     */
    <T> T withSession(SessionOperation<T> operation) throws IOException {
        ensureOpen();
        try (SessionPool.Lease lease = sessions.lease()) {
            return run(lease, operation);
        }
    }

    /**
     * As {@link #withSession}, for an operation that changes nothing on the server (MLST, MLSD): if
     * it fails on a session that had been idle in the pool, as on a connection the server dropped
     * without a word (a restart, a cut), the idle sessions are dropped and it runs once more on a
     * new one.
     *
     * @throws IOException what the operation or the pool throws
     */
    <T> T query(SessionOperation<T> operation) throws IOException {
        ensureOpen();
        try (SessionPool.Lease lease = sessions.lease()) {
            try {
                return run(lease, operation);
            } catch (IOException e) {
                if (isReply(e) || !lease.reused()) {
                    throw e;
                }
                sessions.dropIdle();
            }
        }
        try (SessionPool.Lease lease = sessions.lease()) {
            return run(lease, operation);
        }
    }

    private static <T> T run(SessionPool.Lease lease, SessionOperation<T> operation) throws IOException {
        try {
            return operation.run(lease.session());
        } catch (IOException | RuntimeException e) {
            lease.failed(e);
            throw e;
        }
    }

    /**
     * @return whether {@code e} is the server's negative reply (the session lives on), as opposed
     *     to a broken connection or a timeout: a {@link GridFtpReplyException}, or the JDK's
     *     exception the client makes of a 550 ({@link java.nio.file.NoSuchFileException})
     */
    static boolean isReply(IOException e) {
        return e instanceof GridFtpReplyException || e instanceof java.nio.file.FileSystemException;
    }

    /**
     * Refuses a path the server would receive as another name. globus-gridftp-server reads its
     * clear-text control channel through a telnet driver that drops every byte outside printable
     * ASCII (GCT {@code xio/src/builtins/telnet/globus_xio_telnet.c}), so {@code /data/ü.h5} would
     * reach it as {@code /data/.h5}, another file; under GSI the commands travel wrapped and arrive
     * whole. The first path with such characters asks the server once: MLST of {@code /ü} naming
     * the same file as MLST of {@code /} (same {@code Unique} fact) shows the bytes were dropped.
     *
     * @param serverPath a path about to be sent in a command
     * @throws FileSystemException if this server drops bytes of it
     * @throws IOException if the server cannot be asked
     */
    void checkSendable(String serverPath) throws IOException {
        if (serverPath.chars().allMatch(c -> c >= 32 && c <= 126)) {
            return;
        }
        Boolean drops = dropsNonAscii;
        if (drops == null) {
            drops = query(session -> {
                String rootKey = session.stat("/").unique();
                try {
                    return rootKey != null
                            && rootKey.equals(session.stat("/\u00fc").unique());
                } catch (java.nio.file.NoSuchFileException e) {
                    return false;
                }
            });
            dropsNonAscii = drops;
        }
        if (drops) {
            throw new java.nio.file.FileSystemException(
                    serverPath,
                    null,
                    "the server drops bytes outside printable ASCII from its commands (as globus-gridftp-server's"
                            + " clear-text control channel does), so it would act on another name; use gsiftp://"
                            + " or a name in ASCII");
        }
    }

    void register(Closeable channel) {
        openChannels.add(channel);
    }

    void unregister(Closeable channel) {
        openChannels.remove(channel);
    }

    void ensureOpen() {
        if (closed) {
            throw new ClosedFileSystemException();
        }
    }

    @Override
    public GridFtpFileSystemProvider provider() {
        return provider;
    }

    /**
     * Closes every channel still open on this file system, its sessions (QUIT) and its client;
     * the provider forgets it, so that the next URI for the same key makes a new one.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        provider.forget(this);
        List<IOException> failures = new ArrayList<>();
        for (Closeable channel : List.copyOf(openChannels)) {
            try {
                channel.close();
            } catch (IOException e) {
                failures.add(e);
            }
        }
        sessions.close();
        if (factoryResources != null) {
            factoryResources.close();
        }
        client.close();
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of(new GridFtpPath(this, "/"));
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return List.of(store);
    }

    /** @return {@code basic}, {@code posix} and {@code owner} (readable; see the attribute view) */
    @Override
    public Set<String> supportedFileAttributeViews() {
        return Set.of("basic", "posix", "owner");
    }

    /**
     * @param first a path string; names may hold spaces, UTF-8 and {@code %} as they are
     * @param more further names, joined with {@code /}
     * @throws java.nio.file.InvalidPathException if a name holds NUL, CR or LF
     */
    @Override
    public Path getPath(String first, String... more) {
        if (more.length == 0) {
            return new GridFtpPath(this, first);
        }
        StringBuilder joined = new StringBuilder(first);
        for (String name : more) {
            if (!name.isEmpty()) {
                if (joined.length() > 0) {
                    joined.append('/');
                }
                joined.append(name);
            }
        }
        return new GridFtpPath(this, joined.toString());
    }

    /**
     * {@code glob:} and {@code regex:} as the JDK's Unix file system reads them (its matcher, applied
     * to the path's string form, which uses the same separator).
     */
    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        PathMatcher local = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return path -> path instanceof GridFtpPath p && local.matches(Path.of(p.serverPath()));
    }

    /** @throws UnsupportedOperationException always: FTP does not look principals up */
    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("GridFTP servers do not look up users or groups");
    }

    /** @throws UnsupportedOperationException always: FTP has no change notification */
    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("GridFTP servers send no change notifications");
    }

    @Override
    public String toString() {
        return key.toString();
    }
}
