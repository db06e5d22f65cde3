package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One control session's view of a {@link PosixStorage} ({@link StorageInterface#forSession}): file
 * contents are opened the fast way, relative to the file's directory, which stays open for the
 * next file of a batch; everything else is the storage's own.
 *
 * <p>The fast way: the directory is opened by its virtual path as spelled, each component relative
 * to its parent with O_NOFOLLOW ({@link RootedPathResolver#openLexical}), and the file relative to
 * it with O_NOFOLLOW (openat). A success proves that no component is a symbolic link, so nothing
 * outside the root is read, written or created, and a link swapped in later is not followed
 * (TOCTOU-safe). A link met anywhere, or any failure, sends the operation the full way
 * ({@link RootedPathResolver#resolve}, which follows links inside the root and refuses the others,
 * then {@link RootedPathResolver#open}), which also names the error: the fast way never decides a
 * failure. A read costs one stat (fstatat: type and size) and one open; a new file one open.
 *
 * <p>The directory kept open is the one that was at its path when the batch's first file there
 * was opened: a rename of it or of a parent during the batch is not seen until {@link #endBatch}
 * (the server ends a batch before any command that does not move data, so a session's own MKD,
 * RNFR/RNTO, DELE or RMD is always seen) or until the batch pauses ({@link #batchPaused}: the
 * session's command queue ran dry) with the last check more than {@link #PAUSE_TRUST} ago. Then the
 * kept directory serves again only if the path still names it
 * ({@link RootedPathResolver#isLexicalDirectory}: one lstat, the same device and inode, not a link);
 * else it is opened afresh, the way that refuses links. A pipelining client on this host
 * (globus-url-copy {@code -pp}) empties the queue after every file, a fifth of a millisecond apart:
 * the window spares those files the lstat, and bounds what a rename by another process may go
 * unseen for to that of a batch. A directory moved elsewhere inside the root during a batch keeps receiving that
 * batch's files; none can be moved out of the root through the server. {@link #release} closes it
 * when the session ends. Thread-safe.
 */
final class PosixSessionStorage implements StorageInterface {

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_TRUNCATE = Set.of(
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING,
            LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE_KEEP =
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);

    private final PosixStorage storage;
    private final RootedPathResolver resolver;
    private final Consumer<String> beforeOpen;
    /** The virtual path of the directory kept open (or that the fast way did not reach), or null. */
    private String directoryPath;
    /** The directory kept open, or null (then the fast way did not reach {@link #directoryPath}). */
    private SecureDirectoryStream<Path> directory;
    /** The kept directory's identity (device and inode), to check it against the path later. */
    private Object directoryKey;
    /** True once a batch ended: the kept directory is checked against its path before its next use. */
    private boolean recheck;
    /** True once the batch paused: the kept directory is checked if its last check is older than the window. */
    private boolean paused;
    /** {@link #nanoClock} when the kept directory was opened or last checked against its path. */
    private long checkedAt;

    private final LongSupplier nanoClock;

    /**
     * How long after its last check a kept directory serves a paused batch unchecked: well above the
     * pause between two files of a pipelining client close by, well below what a person notices.
     */
    static final Duration PAUSE_TRUST = Duration.ofMillis(5);

    private static final long PAUSE_TRUST_NANOS = PAUSE_TRUST.toNanos();

    PosixSessionStorage(PosixStorage storage, RootedPathResolver resolver, Consumer<String> beforeOpen) {
        this(storage, resolver, beforeOpen, System::nanoTime);
    }

    /** As the other constructor, with the clock ({@link System#nanoTime} units) given; tests move it by hand. */
    PosixSessionStorage(
            PosixStorage storage, RootedPathResolver resolver, Consumer<String> beforeOpen, LongSupplier nanoClock) {
        this.storage = storage;
        this.resolver = resolver;
        this.beforeOpen = beforeOpen;
        this.nanoClock = nanoClock;
    }

    @Override
    public FileChannel openForRead(String virtualPath) throws StorageException {
        return openForReading(virtualPath).channel();
    }

    @Override
    public OpenFile openForReading(String virtualPath) throws StorageException {
        if (!virtualPath.equals("/")) {
            beforeOpen.accept(virtualPath);
            SecureDirectoryStream<Path> parent = directoryOf(VirtualPaths.parent(virtualPath));
            if (parent != null) {
                try {
                    Path name = Path.of(VirtualPaths.name(virtualPath));
                    BasicFileAttributes attributes = parent.getFileAttributeView(
                                    name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes();
                    if (attributes.isRegularFile()) {
                        return new OpenFile(fileChannel(parent.newByteChannel(name, READ)), attributes.size());
                    }
                    if (attributes.isDirectory()) {
                        throw new StorageException(
                                StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
                    }
                    // a link or a special file: the full way decides
                } catch (StorageException e) {
                    throw e;
                } catch (IOException | ClosedDirectoryStreamException | InvalidPathException e) {
                    // missing, unreadable, swapped meanwhile: the full way names it
                }
            }
        }
        FileChannel channel = storage.openForRead(virtualPath, false);
        try {
            return new OpenFile(channel, channel.size());
        } catch (IOException e) {
            closeQuietly(channel);
            throw StorageException.from(e, virtualPath);
        }
    }

    @Override
    public FileChannel openForWrite(String virtualPath, long truncateTo) throws StorageException {
        if (!virtualPath.equals("/")) {
            beforeOpen.accept(virtualPath);
            SecureDirectoryStream<Path> parent = directoryOf(VirtualPaths.parent(virtualPath));
            if (parent != null) {
                try {
                    FileChannel channel = fileChannel(parent.newByteChannel(
                            Path.of(VirtualPaths.name(virtualPath)), truncateTo == 0 ? CREATE_TRUNCATE : CREATE_KEEP));
                    return PosixStorage.truncated(channel, truncateTo, virtualPath);
                } catch (StorageException e) {
                    throw e; // the open file could not be cut
                } catch (IOException | ClosedDirectoryStreamException | InvalidPathException e) {
                    // a link (ELOOP), a directory, no permission: the full way follows or names it
                }
            }
        }
        return storage.openForWrite(virtualPath, truncateTo, false);
    }

    /**
     * @return the open directory at {@code virtualDirectory}, kept from the last call (checked
     *     again after the end of a batch) or opened the fast way (and kept), or null when the fast
     *     way does not lead there
     */
    private synchronized SecureDirectoryStream<Path> directoryOf(String virtualDirectory) {
        if (virtualDirectory.equals(directoryPath)) {
            if (paused && nanoClock.getAsLong() - checkedAt > PAUSE_TRUST_NANOS) {
                recheck = true;
            }
            paused = false;
            if (!recheck) {
                return directory; // null: a link on the way, so every file of the batch goes the full way
            }
            recheck = false;
            if (directory != null && resolver.isLexicalDirectory(virtualDirectory, directoryKey)) {
                checkedAt = nanoClock.getAsLong();
                return directory; // still the directory at that path, no link on the way
            }
        }
        release();
        directoryPath = virtualDirectory;
        checkedAt = nanoClock.getAsLong();
        directory = resolver.openLexical(virtualDirectory);
        if (directory != null) {
            try {
                directoryKey = directory
                        .getFileAttributeView(BasicFileAttributeView.class)
                        .readAttributes()
                        .fileKey();
            } catch (IOException | ClosedDirectoryStreamException e) {
                directoryKey = null; // never matches: checked again, it is opened again
            }
        }
        return directory;
    }

    /**
     * The batch may have ended: before the kept directory serves another file, the path must still
     * name it (one lstat); otherwise it is opened afresh.
     */
    @Override
    public synchronized void endBatch() {
        recheck = true;
    }

    /**
     * The session's queue ran dry: the kept directory is checked against its path before it serves
     * again if its last check is more than {@link #PAUSE_TRUST} old.
     */
    @Override
    public synchronized void batchPaused() {
        paused = true;
    }

    /** Closes the kept directory (the session ended). */
    @Override
    public synchronized void release() {
        if (directory != null) {
            try {
                directory.close();
            } catch (IOException e) {
                // closing a directory descriptor: nothing to recover
            }
        }
        directory = null;
        directoryPath = null;
        directoryKey = null;
        recheck = false;
        paused = false;
    }

    @Override
    public StorageInterface forSession() {
        return this;
    }

    private static FileChannel fileChannel(SeekableByteChannel channel) throws IOException {
        if (channel instanceof FileChannel file) {
            return file;
        }
        channel.close();
        throw new ClosedChannelException(); // not a file: the full way decides
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // releasing a descriptor after a failure: the failure is what counts
        }
    }

    @Override
    public FileStat stat(String virtualPath) throws StorageException {
        return storage.stat(virtualPath);
    }

    @Override
    public List<FileStat> list(String virtualPath) throws StorageException {
        return storage.list(virtualPath);
    }

    @Override
    public java.util.Optional<FileIdentity> identity(String virtualPath) throws StorageException {
        return storage.identity(virtualPath);
    }

    @Override
    public void createDirectory(String virtualPath) throws StorageException {
        storage.createDirectory(virtualPath);
    }

    @Override
    public void removeDirectory(String virtualPath) throws StorageException {
        storage.removeDirectory(virtualPath);
    }

    @Override
    public void delete(String virtualPath) throws StorageException {
        storage.delete(virtualPath);
    }

    @Override
    public void rename(String fromVirtualPath, String toVirtualPath) throws StorageException {
        storage.rename(fromVirtualPath, toVirtualPath);
    }

    @Override
    public long usableSpaceBytes(String virtualPath) throws StorageException {
        return storage.usableSpaceBytes(virtualPath);
    }

    @Override
    public void setModified(String virtualPath, Instant modified) throws StorageException {
        storage.setModified(virtualPath, modified);
    }

    @Override
    public void setPermissions(String virtualPath, int mode) throws StorageException {
        storage.setPermissions(virtualPath, mode);
    }

    @Override
    public StorageDirectory directory(String virtualPath) throws StorageException {
        return storage.directory(virtualPath);
    }
}
