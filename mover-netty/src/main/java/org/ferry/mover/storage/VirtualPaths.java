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
        if (isNormalAbsolute(path)) {
            return path; // what clients send for every file of a batch: nothing to normalise
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
     * @return true if {@code path} is already what {@link #resolve} returns: {@code /} or absolute
     *     with no empty, {@code .} or {@code ..} component and no trailing slash
     */
    private static boolean isNormalAbsolute(String path) {
        int length = path.length();
        if (length == 0 || path.charAt(0) != '/') {
            return false;
        }
        if (length == 1) {
            return true;
        }
        int componentStart = 1;
        for (int i = 1; i <= length; i++) {
            if (i == length || path.charAt(i) == '/') {
                int componentLength = i - componentStart;
                if (componentLength == 0
                        || (componentLength == 1 && path.charAt(componentStart) == '.')
                        || (componentLength == 2
                                && path.charAt(componentStart) == '.'
                                && path.charAt(componentStart + 1) == '.')) {
                    return false;
                }
                componentStart = i + 1;
            }
        }
        return true;
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
