package org.ferry.mover.nio;

import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.ferry.mover.protocol.FileInfo;

/**
 * A path's attributes as its server's MLST or MLSD entry gives them (RFC 3659 section 7): size
 * from {@code Size}, last modification from {@code Modify} (also given as the access and creation
 * times, which FTP does not carry), type from {@code Type}, permissions from {@code UNIX.mode},
 * owner and group from {@code UNIX.owner}/{@code UNIX.group} (named {@code ?} when the server
 * sends none), the file key from {@code Unique}. Immutable: a snapshot taken when the server
 * answered.
 */
public final class GridFtpFileAttributes implements PosixFileAttributes {

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE,
        PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE,
        PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ
    };

    private final FileInfo info;

    GridFtpFileAttributes(FileInfo info) {
        this.info = info;
    }

    /** @return the entry as parsed from the server's reply */
    public FileInfo fileInfo() {
        return info;
    }

    /**
     * @return the {@code Perm} fact (RFC 3659 section 7.5.5), what this session's user may do,
     *     or null when the server sent none
     */
    public String perm() {
        return info.perm();
    }

    @Override
    public FileTime lastModifiedTime() {
        return FileTime.from(info.modified() == null ? Instant.EPOCH : info.modified());
    }

    /** @return the modification time: FTP carries no access time */
    @Override
    public FileTime lastAccessTime() {
        return lastModifiedTime();
    }

    /** @return the modification time: FTP carries no creation time */
    @Override
    public FileTime creationTime() {
        return lastModifiedTime();
    }

    @Override
    public boolean isRegularFile() {
        return info.type() == FileInfo.Type.FILE;
    }

    @Override
    public boolean isDirectory() {
        return info.type() == FileInfo.Type.DIRECTORY || info.type() == FileInfo.Type.CURRENT_DIRECTORY;
    }

    /** @return true only where the server names the entry a link ({@code Type=slink}); globus follows links */
    @Override
    public boolean isSymbolicLink() {
        return info.type() == FileInfo.Type.SYMLINK;
    }

    @Override
    public boolean isOther() {
        return info.type() == FileInfo.Type.OTHER;
    }

    /** @return bytes, from the {@code Size} fact (0 when the server sent none) */
    @Override
    public long size() {
        return info.sizeBytes();
    }

    /** @return the {@code Unique} fact, or null */
    @Override
    public Object fileKey() {
        return info.unique();
    }

    @Override
    public UserPrincipal owner() {
        return new Owner(info.owner() == null ? "?" : info.owner());
    }

    @Override
    public GroupPrincipal group() {
        return new Group(info.group() == null ? "?" : info.group());
    }

    /** @return the bits of {@code UNIX.mode}; empty when the server sent none */
    @Override
    public Set<PosixFilePermission> permissions() {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        int mode = info.unixMode();
        if (mode >= 0) {
            for (int bit = 0; bit < BITS.length; bit++) {
                if ((mode & (1 << bit)) != 0) {
                    set.add(BITS[bit]);
                }
            }
        }
        return set;
    }

    /** @return permission bits of a set, e.g. 0644 */
    static int mode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (int bit = 0; bit < BITS.length; bit++) {
            if (permissions.contains(BITS[bit])) {
                mode |= 1 << bit;
            }
        }
        return mode;
    }

    /**
     * The attributes by the names {@code Files.readAttributes(path, "posix:*")} knows.
     *
     * @param posix whether the POSIX names are wanted as well as the basic ones
     */
    Map<String, Object> asMap(boolean posix) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("lastModifiedTime", lastModifiedTime());
        map.put("lastAccessTime", lastAccessTime());
        map.put("creationTime", creationTime());
        map.put("size", size());
        map.put("isRegularFile", isRegularFile());
        map.put("isDirectory", isDirectory());
        map.put("isSymbolicLink", isSymbolicLink());
        map.put("isOther", isOther());
        map.put("fileKey", fileKey());
        if (posix) {
            map.put("permissions", permissions());
            map.put("owner", owner());
            map.put("group", group());
        }
        return map;
    }

    /** A user as the server named it. */
    private record Owner(String name) implements UserPrincipal {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A group as the server named it. */
    private record Group(String name) implements GroupPrincipal {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
