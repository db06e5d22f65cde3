package org.ferry.mover.storage;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Resolution of client-supplied paths to normalised virtual absolute paths ({@code /a/b}) against
 * the current working directory (RFC 959 section 3.1.1.1 leaves pathname syntax to the server;
 * globus resolves relative paths against the CWD). {@code .} and empty components are dropped;
 * {@code ..} goes up one level, and going above {@code /} is refused rather than clamped. Stateless.
 */
public final class VirtualPaths {

    private VirtualPaths() {}

    /**
     * @param cwd the current virtual directory, absolute and normalised
     * @param path the path from the command; absolute ({@code /x}) or relative; empty means {@code cwd}
     * @return the normalised virtual absolute path, {@code /} or {@code /a/b} (no trailing slash)
     * @throws StorageException PERMISSION_DENIED if {@code ..} climbs above the root;
     *     INVALID_PATH if the path contains a NUL character
     */
    public static String resolve(String cwd, String path) throws StorageException {
        if (path.indexOf('\0') >= 0) {
            throw new StorageException(StorageException.Reason.INVALID_PATH, "Invalid path name.");
        }
        String full = path.startsWith("/") ? path : cwd + "/" + path;
        Deque<String> parts = new ArrayDeque<>();
        for (String part : full.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    throw new StorageException(
                            StorageException.Reason.PERMISSION_DENIED,
                            path + ": Permission denied (outside the root).");
                }
                parts.removeLast();
            } else {
                parts.addLast(part);
            }
        }
        return parts.isEmpty() ? "/" : "/" + String.join("/", parts);
    }

    /**
     * @param virtualPath a normalised virtual path
     * @return its parent ({@code /} for {@code /} and for top-level entries)
     */
    public static String parent(String virtualPath) {
        int slash = virtualPath.lastIndexOf('/');
        return slash <= 0 ? "/" : virtualPath.substring(0, slash);
    }

    /**
     * @param virtualPath a normalised virtual path
     * @return the last component, or {@code /} for the root
     */
    public static String name(String virtualPath) {
        return virtualPath.equals("/") ? "/" : virtualPath.substring(virtualPath.lastIndexOf('/') + 1);
    }
}
