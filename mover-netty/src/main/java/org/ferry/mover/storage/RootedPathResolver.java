package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Maps normalised virtual paths to real paths under one root directory and guarantees that the
 * result stays inside the root: an existing path is resolved with {@link Path#toRealPath} (which
 * follows every symbolic link) and must lie under the root's real path; a path that does not exist
 * yet is checked through its nearest existing ancestor; a dangling symbolic link is refused (writing
 * through it could create a file anywhere). Thread-safe.
 *
 * <p>Known limit: a link swapped between this check and the following operation (a TOCTOU race by
 * someone with write access inside the root) is not caught.
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
        Path lexical = virtualPath.equals("/") ? realRoot : realRoot.resolve(virtualPath.substring(1)).normalize();
        if (!lexical.startsWith(realRoot)) {
            throw denied(virtualPath);
        }
        try {
            if (Files.exists(lexical)) {
                return checked(lexical.toRealPath(), virtualPath);
            }
            if (Files.exists(lexical, LinkOption.NOFOLLOW_LINKS)) {
                throw denied(virtualPath); // dangling symbolic link
            }
            Path existing = lexical.getParent();
            while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            if (existing == null || !Files.exists(existing)) {
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
        return new StorageException(StorageException.Reason.PERMISSION_DENIED,
                virtualPath + ": Permission denied (outside the root).");
    }
}
