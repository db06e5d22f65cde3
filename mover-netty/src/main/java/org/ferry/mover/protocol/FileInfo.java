package org.ferry.mover.protocol;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a GridFTP listing, as carried by an MLSD/MLST fact line (RFC 3659 section 7;
 * the facts globus-gridftp-server emits are in RFC 3659 section 7).
 *
 * @param name name of the entry: a bare name for MLSD entries, the path asked for with MLST
 * @param type what the entry is
 * @param sizeBytes size in bytes ({@code Size} fact); 0 when the server gave none
 * @param modified last modification time, UTC ({@code Modify} fact); {@code null} when absent
 * @param unixMode permission bits ({@code UNIX.mode} fact, e.g. {@code 0644}); -1 when absent
 */
public record FileInfo(String name, Type type, long sizeBytes, Instant modified, int unixMode) {

    /** Entry types of the MLSx {@code Type} fact. */
    public enum Type {
        /** A regular file ({@code Type=file}). */
        FILE,
        /** A directory ({@code Type=dir}). */
        DIRECTORY,
        /** The listed directory itself ({@code Type=cdir}). */
        CURRENT_DIRECTORY,
        /** The parent of the listed directory ({@code Type=pdir}). */
        PARENT_DIRECTORY,
        /** A symbolic link ({@code Type=slink} or {@code OS.unix=slink}). */
        SYMLINK,
        /** Anything else (devices, pipes). */
        OTHER
    }

    /** @throws NullPointerException if name or type is null */
    public FileInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /** @return true for a regular file */
    public boolean isFile() {
        return type == Type.FILE;
    }

    /** @return true for a directory (not {@code cdir}/{@code pdir}) */
    public boolean isDirectory() {
        return type == Type.DIRECTORY;
    }
}
