package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@link StorageDirectory} of {@link PosixStorage}: the directory's real path was checked once to
 * lie inside the root; each file is opened beneath it without following a symbolic link in the
 * last component ({@code O_NOFOLLOW}), so it cannot lead out of the root. A name that is a symbolic
 * link goes the long way, through the full resolution that allows links inside the root. Saves the
 * realpath walk, the stat and the owner lookup that each full path costs, per file.
 */
final class PosixDirectory implements StorageDirectory {

    private final Path realDirectory;
    private final String virtualPath;
    private final StorageDirectory linked;

    /**
     * @param realDirectory the directory's real path, inside the root
     * @param virtualPath its virtual path, for messages
     * @param linked full resolution, for names that are symbolic links
     */
    PosixDirectory(Path realDirectory, String virtualPath, StorageDirectory linked) {
        this.realDirectory = realDirectory;
        this.virtualPath = virtualPath;
        this.linked = linked;
    }

    @Override
    public FileChannel openForRead(String name) throws StorageException {
        Path file = realDirectory.resolve(name);
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                return linked.openForRead(name);
            }
            if (attributes.isDirectory()) {
                throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, path(name) + ": Is a directory.");
            }
            return FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, path(name));
        }
    }

    @Override
    public FileChannel create(String name) throws StorageException {
        Path file = realDirectory.resolve(name);
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) {
                return linked.create(name); // O_NOFOLLOW refused a link: resolve it in full
            }
            throw StorageException.from(e, path(name));
        }
    }

    private String path(String name) {
        return virtualPath.endsWith("/") ? virtualPath + name : virtualPath + "/" + name;
    }
}
