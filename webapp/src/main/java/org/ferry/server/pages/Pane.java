package org.ferry.server.pages;

import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.mover.protocol.FileInfo;

/**
 * One side of the file manager as the template shows it.
 *
 * @param side {@code left} or {@code right}
 * @param endpointId the chosen endpoint's id, or an empty string
 * @param endpoint the chosen endpoint, or null
 * @param path the directory shown (absolute)
 * @param parent the parent directory, or null at {@code /}
 * @param entries the directory's entries, directories first
 * @param error why the listing failed, or null
 */
public record Pane(
        String side,
        String endpointId,
        Endpoint endpoint,
        String path,
        String parent,
        List<FileInfo> entries,
        String error) {

    /** @return whether the pane lists a directory */
    public boolean listed() {
        return endpoint != null && error == null;
    }

    /**
     * @param directory a directory of this pane's endpoint
     * @param other the other pane, whose state the link keeps
     * @return the file manager's address showing that directory here
     */
    public String linkTo(String directory, Pane other) {
        return side.equals("left")
                ? FileManagerPages.url(endpointId, directory, other.endpointId(), other.path())
                : FileManagerPages.url(other.endpointId(), other.path(), endpointId, directory);
    }

    /**
     * @param name an entry's name
     * @return its path in this pane's directory
     */
    public String child(String name) {
        return join(path, name);
    }

    /**
     * @param directory a directory path
     * @param name an entry's name
     * @return the entry's path
     */
    public static String join(String directory, String name) {
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    /**
     * @param path an absolute path
     * @return its parent, or null for {@code /}
     */
    public static String parentOf(String path) {
        if (path == null || path.equals("/") || path.isEmpty()) {
            return null;
        }
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        int slash = trimmed.lastIndexOf('/');
        return slash <= 0 ? "/" : trimmed.substring(0, slash);
    }
}
