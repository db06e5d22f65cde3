package org.ferry.mover.storage;

import java.nio.channels.FileChannel;
import java.util.List;

/**
 * File system operations of the GridFTP server, addressed by normalised virtual absolute paths
 * (produced by {@link VirtualPaths#resolve}). Implementations confine every operation to their
 * root and throw {@link StorageException} with a {@link StorageException.Reason} on failure. The
 * methods block: call them off the Netty event loop. Implementations are thread-safe.
 */
public interface StorageInterface {

    /**
     * @param virtualPath the entry
     * @return its attributes; symbolic links inside the root are followed
     * @throws StorageException NOT_FOUND, PERMISSION_DENIED (also outside the root), OTHER
     */
    FileStat stat(String virtualPath) throws StorageException;

    /**
     * A regular file's identity (device, inode, size, modification and change times), where the
     * file system gives inodes: what a checksum computed in flight is kept with and checked against
     * before it answers CKSM. The default has none.
     *
     * @param virtualPath a file
     * @return its identity, or empty when this storage cannot tell one (no inodes, not a regular file)
     * @throws StorageException NOT_FOUND, PERMISSION_DENIED (also outside the root), OTHER
     */
    default java.util.Optional<FileIdentity> identity(String virtualPath) throws StorageException {
        return java.util.Optional.empty();
    }

    /**
     * @param virtualPath a directory
     * @return its entries sorted by name (without {@code .} and {@code ..}); symbolic links that
     *     point outside the root are reported as {@code SYMLINK} entries and not followed
     * @throws StorageException NOT_FOUND, NOT_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    List<FileStat> list(String virtualPath) throws StorageException;

    /**
     * @param virtualPath a regular file
     * @return a channel open for reading; the caller closes it
     * @throws StorageException NOT_FOUND, IS_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    FileChannel openForRead(String virtualPath) throws StorageException;

    /**
     * Opens a regular file for reading and says how long it is, with one stat where the storage can
     * (the default opens, then asks the open file its size).
     *
     * @param virtualPath a regular file
     * @return the open file, which the caller closes, and its size when it was opened
     * @throws StorageException NOT_FOUND, IS_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    default OpenFile openForReading(String virtualPath) throws StorageException {
        FileChannel channel = openForRead(virtualPath);
        try {
            return new OpenFile(channel, channel.size());
        } catch (java.io.IOException e) {
            try {
                channel.close();
            } catch (java.io.IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw StorageException.from(e, virtualPath);
        }
    }

    /**
     * A file open for reading and its size in bytes at the time it was opened.
     *
     * @param channel the open file; its owner closes it
     * @param sizeBytes its length, 0..
     */
    record OpenFile(FileChannel channel, long sizeBytes) {}

    /**
     * Opens a file for writing in place, creating it if needed (globus writes in place too).
     *
     * @param virtualPath the file to write
     * @param truncateTo the length to truncate an existing file to before writing (0 for a new
     *     upload, the restart offset for a resumed one); never extends the file
     * @return a channel open for writing; the caller closes it
     * @throws StorageException NOT_FOUND (parent missing), IS_A_DIRECTORY, PERMISSION_DENIED, NO_SPACE, OTHER
     */
    FileChannel openForWrite(String virtualPath, long truncateTo) throws StorageException;

    /**
     * @param virtualPath the directory to create (its parent must exist)
     * @throws StorageException EXISTS, NOT_FOUND, PERMISSION_DENIED, OTHER
     */
    void createDirectory(String virtualPath) throws StorageException;

    /**
     * @param virtualPath an empty directory (not the root)
     * @throws StorageException NOT_FOUND, NOT_A_DIRECTORY, NOT_EMPTY, PERMISSION_DENIED, OTHER
     */
    void removeDirectory(String virtualPath) throws StorageException;

    /**
     * @param virtualPath a file (not a directory); a symbolic link itself is removed, not its target
     * @throws StorageException NOT_FOUND, IS_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    void delete(String virtualPath) throws StorageException;

    /**
     * Renames within the root, replacing an existing target file.
     *
     * @param fromVirtualPath existing entry
     * @param toVirtualPath new name
     * @throws StorageException NOT_FOUND, PERMISSION_DENIED, EXISTS (non-empty directory target), OTHER
     */
    void rename(String fromVirtualPath, String toVirtualPath) throws StorageException;

    /**
     * Space for new data where {@code virtualPath} is or would be created (ALLO, RFC 959 section
     * 4.1.3): the usable bytes of the file system under it, as far as the storage can tell.
     *
     * @param virtualPath a file, existing or not, whose parent directory exists
     * @return usable bytes (0..), or {@link Long#MAX_VALUE} when the storage cannot tell
     * @throws StorageException PERMISSION_DENIED outside the root; OTHER on an I/O error
     */
    default long usableSpaceBytes(String virtualPath) throws StorageException {
        return Long.MAX_VALUE;
    }

    /**
     * Sets a file's modification time (MFMT, RFC 3659 draft; SITE UTIME of globus).
     *
     * @param virtualPath the file or directory
     * @param modified the new time
     * @throws StorageException NOT_FOUND, PERMISSION_DENIED; OTHER if the storage cannot do it
     */
    default void setModified(String virtualPath, java.time.Instant modified) throws StorageException {
        throw new StorageException(StorageException.Reason.OTHER, "setting times is not supported");
    }

    /**
     * Sets POSIX permission bits (SITE CHMOD of globus).
     *
     * @param virtualPath the file or directory
     * @param mode permission bits, 0..0777
     * @throws StorageException NOT_FOUND, PERMISSION_DENIED; OTHER if the storage cannot do it
     */
    default void setPermissions(String virtualPath, int mode) throws StorageException {
        throw new StorageException(StorageException.Reason.OTHER, "permissions are not supported");
    }

    /**
     * A view of this storage for one control session. It answers like this storage, and may keep
     * open between operations what a batch of files in one directory would otherwise look up for
     * every file (the directory itself), until {@link #endBatch}. The server asks for one per session,
     * ends the batch before any command that does not move data, says when it pauses ({@link
     * #batchPaused}: the session's queue of commands ran dry), and {@linkplain #release releases} it
     * when the session ends. The default keeps
     * nothing: this storage itself.
     *
     * @return the session's view
     */
    default StorageInterface forSession() {
        return this;
    }

    /**
     * Says that a {@linkplain #forSession session view}'s batch of files may have ended: what the
     * view keeps between files (a directory) must be checked against the path before it serves
     * again, or looked up afresh. Nothing to do on a storage that keeps nothing. Never throws.
     */
    default void endBatch() {}

    /**
     * Says that a {@linkplain #forSession session view}'s queue of commands ran dry: the batch may
     * have ended, or its client is between two files (a pipelining client sends the next command
     * once it has stored the last file). A view may keep serving what it checked against the path a
     * moment ago; the default treats it as {@link #endBatch}. Never throws.
     */
    default void batchPaused() {
        endBatch();
    }

    /**
     * Closes what a {@linkplain #forSession session view} keeps open (the session ended). Nothing to
     * do on a storage that keeps nothing. Never throws.
     */
    default void release() {}

    /**
     * One directory's plain-named files, for batches of many small files (the TAR module): the
     * directory is resolved once, not once per file. The default resolves each file in full through
     * this interface's own methods (following links inside the root, as they do).
     *
     * @param virtualPath a directory
     * @return access to files directly inside it
     * @throws StorageException NOT_FOUND, NOT_A_DIRECTORY, PERMISSION_DENIED, OTHER
     */
    default StorageDirectory directory(String virtualPath) throws StorageException {
        if (!stat(virtualPath).isDirectory()) {
            throw new StorageException(StorageException.Reason.NOT_A_DIRECTORY, virtualPath + ": Not a directory.");
        }
        return new StorageDirectory() {
            @Override
            public long size(String name) throws StorageException {
                String path = VirtualPaths.resolve(virtualPath, name);
                FileStat stat = stat(path);
                if (stat.isDirectory()) {
                    throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, path + ": Is a directory.");
                }
                return stat.sizeBytes();
            }

            @Override
            public FileChannel openForRead(String name) throws StorageException {
                return StorageInterface.this.openForRead(VirtualPaths.resolve(virtualPath, name));
            }

            @Override
            public FileChannel create(String name) throws StorageException {
                return StorageInterface.this.openForWrite(VirtualPaths.resolve(virtualPath, name), 0);
            }
        };
    }
}
