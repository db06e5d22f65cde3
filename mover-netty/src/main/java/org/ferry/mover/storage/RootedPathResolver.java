package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;

/**
 * Maps normalised virtual paths to real paths under one root directory and guarantees that the
 * result stays inside the root: an existing path is resolved with {@link Path#toRealPath} (which
 * follows every symbolic link) and must lie under the root's real path; a path that does not exist
 * yet is checked through its nearest existing ancestor; a dangling symbolic link is refused (writing
 * through it could create a file anywhere). Thread-safe.
 *
 * <p>A check alone races with the file system (TOCTOU): someone with write access inside the root
 * could swap a directory or the file for a symbolic link after {@link #resolve} and before the
 * open. {@link #open} closes that gap for reading and writing file contents: it walks the resolved
 * path from the root directory without following any link. Other operations (stat, list, mkdir,
 * delete, rename, times, permissions) still act on the checked path by name.
 */
public final class RootedPathResolver {

    private final Path realRoot;

    /**
     * @param root the directory to serve; must exist
     * @throws IOException if the root does not exist or is not a directory
     */
    public RootedPathResolver(Path root) throws IOException {
        this.realRoot = root.toRealPath();
        if (!Files.isDirectory(realRoot)) {
            throw new IOException("not a directory: " + root);
        }
    }

    /** @return the root's real path */
    public Path realRoot() {
        return realRoot;
    }

    /**
     * @param virtualPath normalised virtual absolute path (see {@link VirtualPaths#resolve})
     * @return the real path, inside the root; it may not exist
     * @throws StorageException PERMISSION_DENIED if the path (through any symbolic link) leaves the
     *     root or is a dangling link; OTHER on an I/O error while resolving
     */
    public Path resolve(String virtualPath) throws StorageException {
        Path lexical = virtualPath.equals("/")
                ? realRoot
                : realRoot.resolve(virtualPath.substring(1)).normalize();
        if (!lexical.startsWith(realRoot)) {
            throw denied(virtualPath);
        }
        try {
            // java.io.File answers "exists" with a stat and no exception: a STOR's new file would
            // otherwise cost two NoSuchFileExceptions (stack traces included) per file
            if (lexical.toFile().exists()) {
                return checked(lexical.toRealPath(), virtualPath);
            }
            if (Files.exists(lexical, LinkOption.NOFOLLOW_LINKS)) {
                throw denied(virtualPath); // dangling symbolic link
            }
            Path existing = lexical.getParent();
            while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            if (existing == null || !existing.toFile().exists()) {
                throw denied(virtualPath);
            }
            Path realAncestor = checked(existing.toRealPath(), virtualPath);
            return realAncestor.resolve(existing.relativize(lexical));
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            throw StorageException.from(e, virtualPath);
        }
    }

    /**
     * Opens a file that {@link #resolve} returned, following no symbolic link between the root and
     * the file: each directory below the root is opened relative to its parent and the file relative
     * to its directory, all with {@link LinkOption#NOFOLLOW_LINKS} (openat with O_NOFOLLOW, through
     * {@link SecureDirectoryStream}). {@code resolve} returns a path free of links, so a link met
     * here was swapped in after the check and the open is refused: nothing outside the root is read,
     * written or created through it.
     *
     * @param real a path returned by {@link #resolve} (inside the root, links resolved)
     * @param virtualPath the virtual path it came from, for messages
     * @param options open options ({@code READ}, or {@code WRITE} and {@code CREATE}, ...);
     *     {@code NOFOLLOW_LINKS} is added
     * @return the open channel; the caller closes it
     * @throws StorageException PERMISSION_DENIED if a component is (now) a symbolic link or the path
     *     is not under the root; IS_A_DIRECTORY for the root itself; NOT_FOUND, NOT_A_DIRECTORY,
     *     NO_SPACE, OTHER as the open fails
     */
    public FileChannel open(Path real, String virtualPath, Set<? extends OpenOption> options) throws StorageException {
        if (real.equals(realRoot)) {
            throw new StorageException(StorageException.Reason.IS_A_DIRECTORY, virtualPath + ": Is a directory.");
        }
        Set<OpenOption> noFollow = new HashSet<>(options);
        noFollow.add(LinkOption.NOFOLLOW_LINKS);
        SecureDirectoryStream<Path> directory = openDirectory(real.getParent(), virtualPath);
        try {
            if (directory == null) {
                return openChecked(real, virtualPath, noFollow); // no openat on this platform
            }
            SeekableByteChannel channel = directory.newByteChannel(real.getFileName(), noFollow);
            if (channel instanceof FileChannel file) {
                return file;
            }
            channel.close();
            throw new StorageException(StorageException.Reason.OTHER, virtualPath + ": not a file channel.");
        } catch (StorageException e) {
            throw e;
        } catch (IOException e) {
            // ELOOP from O_NOFOLLOW: the file is a link now
            if (Files.isSymbolicLink(real)) {
                throw denied(virtualPath);
            }
            throw StorageException.from(e, virtualPath);
        } finally {
            if (directory != null) {
                try {
                    directory.close();
                } catch (IOException e) {
                    // closing a directory descriptor: nothing to recover
                }
            }
        }
    }

    /**
     * Opens a directory that {@link #resolve} returned the way {@link #open} opens a file's parent:
     * each component below the root relative to its parent, following no symbolic link, so the
     * returned stream is the directory the check saw; files opened through it with
     * {@link LinkOption#NOFOLLOW_LINKS} (openat with O_NOFOLLOW) cannot lead out of the root.
     *
     * @param real a directory path returned by {@link #resolve}
     * @param virtualPath the virtual path it came from, for messages
     * @return the open directory, or null where the platform has no {@link SecureDirectoryStream};
     *     the caller closes it
     * @throws StorageException PERMISSION_DENIED if a component is (now) a symbolic link or the path
     *     is not under the root; NOT_FOUND, NOT_A_DIRECTORY, OTHER as the open fails
     */
    public SecureDirectoryStream<Path> openDirectory(Path real, String virtualPath) throws StorageException {
        if (!real.startsWith(realRoot)) {
            throw denied(virtualPath);
        }
        Path relative = realRoot.relativize(real);
        int depth = 0;
        DirectoryStream<Path> current = null;
        try {
            current = Files.newDirectoryStream(realRoot);
            if (!(current instanceof SecureDirectoryStream<Path> directory)) {
                current.close();
                return null; // no openat on this platform
            }
            for (; relative.toString().length() > 0 && depth < relative.getNameCount(); depth++) {
                SecureDirectoryStream<Path> next =
                        directory.newDirectoryStream(relative.getName(depth), LinkOption.NOFOLLOW_LINKS);
                directory.close();
                directory = next;
                current = next;
            }
            return directory;
        } catch (IOException e) {
            try {
                if (current != null) {
                    current.close();
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (Files.isSymbolicLink(
                    realRoot.resolve(relative.subpath(0, Math.min(depth + 1, relative.getNameCount()))))) {
                throw denied(virtualPath);
            }
            throw StorageException.from(e, virtualPath);
        }
    }

    /**
     * Opens a directory by its virtual path as it is spelled, component by component from the root,
     * following no symbolic link (openat with O_NOFOLLOW at each level): the fast way to a batch's
     * directory, without {@link #resolve}'s realpath. A success proves that no component is a link,
     * so the directory is inside the root, and files opened through it with
     * {@link LinkOption#NOFOLLOW_LINKS} cannot lead out of it. Anything else (a component that is a
     * link, missing, not a directory, unreadable, no openat on this platform) gives null, and the
     * caller takes the full way ({@link #resolve}, then {@link #open}), which follows links inside
     * the root and names the error.
     *
     * @param virtualDirectory a normalised virtual absolute path (see {@link VirtualPaths#resolve})
     * @return the open directory, which the caller closes, or null
     */
    SecureDirectoryStream<Path> openLexical(String virtualDirectory) {
        DirectoryStream<Path> current = null;
        try {
            current = Files.newDirectoryStream(realRoot);
            if (!(current instanceof SecureDirectoryStream<Path> directory)) {
                current.close();
                return null; // no openat on this platform
            }
            int start = 1;
            while (start < virtualDirectory.length()) {
                int end = virtualDirectory.indexOf('/', start);
                if (end < 0) {
                    end = virtualDirectory.length();
                }
                SecureDirectoryStream<Path> next = directory.newDirectoryStream(
                        Path.of(virtualDirectory.substring(start, end)), LinkOption.NOFOLLOW_LINKS);
                directory.close();
                directory = next;
                current = next;
                start = end + 1;
            }
            return directory;
        } catch (IOException | RuntimeException e) {
            // a link, a missing or unreadable component: not the fast way's to judge
            try {
                if (current != null) {
                    current.close();
                }
            } catch (IOException suppressed) {
                // closing a directory descriptor: nothing to recover
            }
            return null;
        }
    }

    /**
     * Whether a virtual path still names a directory opened earlier by {@link #openLexical}: one
     * lstat of the path, whose last component must not be a link and must be the same directory
     * (device and inode) as {@code fileKey}. A directory renamed away, or replaced by another or by
     * a link, fails the check; the caller then opens the path afresh, the way that refuses links.
     *
     * @param virtualDirectory a normalised virtual absolute path
     * @param fileKey the {@link BasicFileAttributes#fileKey} of the directory opened then
     * @return true if it does
     */
    boolean isLexicalDirectory(String virtualDirectory, Object fileKey) {
        if (fileKey == null) {
            return false;
        }
        Path path = virtualDirectory.equals("/") ? realRoot : realRoot.resolve(virtualDirectory.substring(1));
        try {
            BasicFileAttributes attributes =
                    Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return attributes.isDirectory() && fileKey.equals(attributes.fileKey());
        } catch (IOException | RuntimeException e) {
            return false; // gone: opened afresh, where the failure is named
        }
    }

    /** Without openat: the file itself opened without following, its parent checked again after. */
    private FileChannel openChecked(Path real, String virtualPath, Set<OpenOption> noFollow) throws IOException {
        FileChannel channel = FileChannel.open(real, noFollow);
        if (!real.getParent().toRealPath().equals(real.getParent())) {
            channel.close();
            throw denied(virtualPath);
        }
        return channel;
    }

    /**
     * @param realPath a real path (links resolved)
     * @return true if it is the root or lies under it
     */
    public boolean isInside(Path realPath) {
        return realPath.startsWith(realRoot);
    }

    private Path checked(Path real, String virtualPath) throws StorageException {
        if (!isInside(real)) {
            throw denied(virtualPath);
        }
        return real;
    }

    private static StorageException denied(String virtualPath) {
        return new StorageException(
                StorageException.Reason.PERMISSION_DENIED, virtualPath + ": Permission denied (outside the root).");
    }
}
