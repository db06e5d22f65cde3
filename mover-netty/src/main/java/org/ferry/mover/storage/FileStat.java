package org.ferry.mover.storage;

import java.time.Instant;
import java.util.Objects;
import org.ferry.mover.protocol.FileInfo;

/**
 * What the storage interface knows about one file system entry.
 *
 * @param name the entry's own name (last path component; {@code /} for the root)
 * @param type file, directory, symbolic link (only for links not followed) or other
 * @param sizeBytes size in bytes (0 for directories on some file systems)
 * @param modified last modification time
 * @param unixMode permission bits, e.g. {@code 0644}; -1 if the file system has none
 * @param readable whether this process may read it (list it, for a directory): from its mode bits,
 *     owner and group where the file system gives them (access control lists are not consulted),
 *     else by access(2)
 * @param writable whether this process may write it (create entries in it, for a directory), decided
 *     the same way
 * @param owner owner name, "-" if unknown
 * @param group group name, "-" if unknown
 */
public record FileStat(
        String name,
        FileInfo.Type type,
        long sizeBytes,
        Instant modified,
        int unixMode,
        boolean readable,
        boolean writable,
        String owner,
        String group) {

    /** @throws NullPointerException if name, type or modified is null */
    public FileStat {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(modified, "modified");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(group, "group");
    }

    /** @return true for a directory */
    public boolean isDirectory() {
        return type == FileInfo.Type.DIRECTORY;
    }

    /** @return true for a regular file */
    public boolean isFile() {
        return type == FileInfo.Type.FILE;
    }
}
