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
 * @param perm what the logged-in user may do with the entry ({@code Perm} fact, RFC 3659 section
 *     7.5.5: letters of {@code acdeflmprw}, lower case); null when absent
 * @param owner the owning account's name ({@code UNIX.owner} fact); null when absent
 * @param group the owning group's name ({@code UNIX.group} fact); null when absent
 * @param unique the server's identifier of the file ({@code Unique} fact, RFC 3659 section 7.5.2),
 *     the same for every name of one file; null when absent
 */
public record FileInfo(
        String name,
        Type type,
        long sizeBytes,
        Instant modified,
        int unixMode,
        String perm,
        String owner,
        String group,
        String unique) {

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

    /**
     * An entry without the {@code Perm}, {@code UNIX.owner}, {@code UNIX.group} and {@code Unique}
     * facts.
     *
     * @throws NullPointerException if name or type is null
     */
    public FileInfo(String name, Type type, long sizeBytes, Instant modified, int unixMode) {
        this(name, type, sizeBytes, modified, unixMode, null, null, null, null);
    }

    /**
     * @param newName the name the entry gets
     * @return this entry with another name (e.g. the path an MLST asked for)
     */
    public FileInfo withName(String newName) {
        return new FileInfo(newName, type, sizeBytes, modified, unixMode, perm, owner, group, unique);
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
