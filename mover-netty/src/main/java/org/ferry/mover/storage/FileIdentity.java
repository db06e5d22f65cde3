package org.ferry.mover.storage;

/**
 * Who a file is and which version of it: its device and inode (POSIX {@code st_dev}, {@code
 * st_ino}), its size, its modification time and its status change time ({@code st_mtim}, {@code
 * st_ctim}). Two identities are equal only if nothing written to the file, and no rename over it,
 * came between them as far as the file system can tell: a write changes size or mtime and always
 * ctime, which no user can set back ({@code touch -d} sets mtime, and ctime to now); a file
 * replaced by another has another inode. What a checksum computed while the file was received is
 * kept with ({@code org.ferry.mover.server.command.ChecksumCache}).
 *
 * @param device the file system's device number
 * @param inode the inode number on that device
 * @param sizeBytes size in bytes
 * @param modifiedNanos modification time, nanoseconds since the epoch
 * @param changedNanos status change time, nanoseconds since the epoch
 */
public record FileIdentity(long device, long inode, long sizeBytes, long modifiedNanos, long changedNanos) {

    /**
     * @param other another version of perhaps the same file
     * @return true if both name the same file (device and inode), whatever its contents
     */
    public boolean sameFile(FileIdentity other) {
        return device == other.device && inode == other.inode;
    }
}
