package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;

/**
 * {@link StorageDirectory} of {@link PosixStorage}: the directory is opened once, walking from the
 * root without following links ({@link RootedPathResolver#openDirectory}), and each file is opened
 * relative to it with O_NOFOLLOW (openat), so a file cannot lead out of the root and no link
 * swapped into the path later is followed. A name that is a symbolic link is read the long way,
 * through the full resolution that allows links inside the root, and is never written through. Saves, per file, the realpath walk,
 * the stat and owner lookup, and the component-by-component walk that a full path costs.
 */
final class PosixDirectory implements StorageDirectory {

    private static final Set<OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final Set<OpenOption> CREATE = Set.of(
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING,
            LinkOption.NOFOLLOW_LINKS);

    private final SecureDirectoryStream<Path> directory;
    private final String virtualPath;
    private final StorageDirectory linked;

    /**
     * @param directory the open directory (closed by {@link #close()})
     * @param virtualPath its virtual path, for messages
     * @param linked full resolution, for names that are symbolic links
     */
    PosixDirectory(SecureDirectoryStream<Path> directory, String virtualPath, StorageDirectory linked) {
        this.directory = directory;
        this.virtualPath = virtualPath;
        this.linked = linked;
    }

    @Override
    public long size(String name) throws StorageException {
        BasicFileAttributes attributes = regularFile(name);
        return attributes == null ? linked.size(name) : attributes.size();
    }

    @Override
    public FileChannel openForRead(String name) throws StorageException {
        if (regularFile(name) == null) {
            return linked.openForRead(name);
        }
        try {
            return fileChannel(directory.newByteChannel(Path.of(name), READ), name);
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, path(name));
        }
    }

    /**
     * @return the attributes of {@code name} (fstatat, not following a link), or null when it is a
     *     symbolic link, which is read the long way
     * @throws StorageException IS_A_DIRECTORY, NOT_FOUND, OTHER
     */
    private BasicFileAttributes regularFile(String name) throws StorageException {
        try {
            BasicFileAttributes attributes = directory
                    .getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            if (attributes.isDirectory()) {
                throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, path(name) + ": Is a directory.");
            }
            return attributes.isSymbolicLink() ? null : attributes;
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, path(name));
        }
    }

    @Override
    public FileChannel create(String name) throws StorageException {
        Path file = Path.of(name);
        try {
            return fileChannel(directory.newByteChannel(file, CREATE), name);
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            if (isLink(file)) {
                // A batch writes the files it names, not what a link there points at; the client's
                // one-by-one STOR, which follows links inside the root, is the way through a link.
                throw new StorageException(
                        StorageException.Reason.PERMISSION_DENIED,
                        path(name) + ": is a symbolic link; not written through.");
            }
            throw StorageException.from(e, path(name));
        }
    }

    @Override
    public void close() throws StorageException {
        try {
            directory.close();
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    private boolean isLink(Path file) {
        try {
            return directory
                    .getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes()
                    .isSymbolicLink();
        } catch (IOException e) {
            return false;
        }
    }

    private FileChannel fileChannel(SeekableByteChannel channel, String name) throws IOException {
        if (channel instanceof FileChannel file) {
            return file;
        }
        channel.close();
        throw new StorageException(StorageException.Reason.OTHER, path(name) + ": not a file channel.");
    }

    private String path(String name) {
        return virtualPath.endsWith("/") ? virtualPath + name : virtualPath + "/" + name;
    }
}
