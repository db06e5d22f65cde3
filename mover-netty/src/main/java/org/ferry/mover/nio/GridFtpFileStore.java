package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * The one file store of a GridFTP file system, named {@code host:port}, of type the URI scheme.
 * Neither RFC 959 nor GFD.020 has a command for free space, and neither globus-gridftp-server nor
 * ferry-gridftp offers one (such as {@code AVBL} of draft-peterson-streamlined-ftp-command-extensions),
 * so the space figures are unknown: they throw a {@link FileSystemException} that says so.
 */
final class GridFtpFileStore extends FileStore {

    private final GridFtpFileSystem fileSystem;

    GridFtpFileStore(GridFtpFileSystem fileSystem) {
        this.fileSystem = fileSystem;
    }

    @Override
    public String name() {
        return fileSystem.key().host() + ":" + fileSystem.key().port();
    }

    @Override
    public String type() {
        return fileSystem.key().scheme();
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    private IOException unknown() {
        return new FileSystemException(
                name(),
                null,
                "space unknown: GridFTP servers do not report it (no space command in RFC 959 or GFD.020)");
    }

    /** @throws FileSystemException always: the server does not say */
    @Override
    public long getTotalSpace() throws IOException {
        throw unknown();
    }

    /** @throws FileSystemException always: the server does not say */
    @Override
    public long getUsableSpace() throws IOException {
        throw unknown();
    }

    /** @throws FileSystemException always: the server does not say */
    @Override
    public long getUnallocatedSpace() throws IOException {
        throw unknown();
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        return type == BasicFileAttributeView.class
                || type == PosixFileAttributeView.class
                || type == FileOwnerAttributeView.class;
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return fileSystem.supportedFileAttributeViews().contains(name);
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    /**
     * @param attribute {@code totalSpace}, {@code usableSpace} or {@code unallocatedSpace}
     * @throws FileSystemException for those: the server does not say
     * @throws UnsupportedOperationException for any other
     */
    @Override
    public Object getAttribute(String attribute) throws IOException {
        switch (attribute) {
            case "totalSpace", "usableSpace", "unallocatedSpace" -> throw unknown();
            default -> throw new UnsupportedOperationException("no file store attribute " + attribute);
        }
    }

    @Override
    public String toString() {
        return name() + " (" + type() + ")";
    }
}
