package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * The {@code basic}, {@code posix} and {@code owner} views of a remote path: reads are MLST
 * ({@link GridFtpFileAttributes}); the modification time is set with {@code MFMT} (or globus's
 * {@code SITE UTIME}), permissions with {@code SITE CHMOD}. Access and creation times cannot be set
 * (FTP carries neither: they are ignored, as the JDK allows), nor owner and group (no FTP command:
 * {@link UnsupportedOperationException}).
 */
final class GridFtpFileAttributeView implements PosixFileAttributeView {

    private final GridFtpPath path;
    private final String name;

    /** @param name the view's name: {@code basic}, {@code posix} or {@code owner} */
    GridFtpFileAttributeView(GridFtpPath path, String name) {
        this.path = path;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GridFtpFileAttributes readAttributes() throws IOException {
        return path.getFileSystem().provider().stat(path, false);
    }

    /** Sets the modification time (MFMT/SITE UTIME, whole seconds); the other two are ignored. */
    @Override
    public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) throws IOException {
        if (lastModifiedTime != null) {
            path.getFileSystem().provider().setModifiedTime(path, lastModifiedTime);
        }
    }

    @Override
    public void setPermissions(Set<PosixFilePermission> perms) throws IOException {
        path.getFileSystem().provider().setPermissions(path, perms);
    }

    /** @throws UnsupportedOperationException always: FTP has no command to change an owner */
    @Override
    public void setOwner(UserPrincipal owner) {
        throw new UnsupportedOperationException("FTP has no command to change a file's owner");
    }

    @Override
    public UserPrincipal getOwner() throws IOException {
        return readAttributes().owner();
    }

    /** @throws UnsupportedOperationException always: ferry-gridftp has no SITE CHGRP */
    @Override
    public void setGroup(GroupPrincipal group) {
        throw new UnsupportedOperationException("changing a file's group is not supported");
    }
}
