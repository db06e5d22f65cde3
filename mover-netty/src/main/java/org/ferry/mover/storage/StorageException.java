package org.ferry.mover.storage;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.Objects;

/**
 * A storage failure with a classified {@link Reason}, so that the protocol interpreter can map it
 * to a reply code (RFC 959 section 4.2). Messages name virtual paths only, never the
 * real location of the root.
 */
public final class StorageException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Why an operation failed. */
    public enum Reason {
        /** The path does not exist (ENOENT). */
        NOT_FOUND,
        /** Not allowed, including any attempt to leave the root (EACCES/EPERM). */
        PERMISSION_DENIED,
        /** The target already exists (EEXIST). */
        EXISTS,
        /** A directory was expected (ENOTDIR). */
        NOT_A_DIRECTORY,
        /** A regular file was expected (EISDIR). */
        IS_A_DIRECTORY,
        /** The directory is not empty (ENOTEMPTY). */
        NOT_EMPTY,
        /** No space or quota left (ENOSPC/EDQUOT/EFBIG). */
        NO_SPACE,
        /** The path is not acceptable (bad characters). */
        INVALID_PATH,
        /** Anything else. */
        OTHER
    }

    private final Reason reason;

    /**
     * @param reason the classification
     * @param message text for the reply, naming the virtual path
     */
    public StorageException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * @param reason the classification
     * @param message text for the reply
     * @param cause the underlying failure
     */
    public StorageException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** @return the classification */
    public Reason reason() {
        return reason;
    }

    /**
     * Classifies a JDK I/O failure.
     *
     * @param e the failure from {@code java.nio.file}
     * @param virtualPath the path to name in the message
     * @return {@code e} itself if already a StorageException, else a classified wrapper
     */
    public static StorageException from(IOException e, String virtualPath) {
        if (e instanceof StorageException se) {
            return se;
        }
        Reason reason;
        String text;
        if (e instanceof NoSuchFileException) {
            reason = Reason.NOT_FOUND;
            text = "No such file or directory.";
        } else if (e instanceof AccessDeniedException) {
            reason = Reason.PERMISSION_DENIED;
            text = "Permission denied.";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = Reason.EXISTS;
            text = "File exists.";
        } else if (e instanceof DirectoryNotEmptyException) {
            reason = Reason.NOT_EMPTY;
            text = "Directory not empty.";
        } else if (e instanceof NotDirectoryException) {
            reason = Reason.NOT_A_DIRECTORY;
            text = "Not a directory.";
        } else {
            String detail = e instanceof FileSystemException fse && fse.getReason() != null
                    ? fse.getReason()
                    : String.valueOf(e.getMessage());
            String lower = detail.toLowerCase(Locale.ROOT);
            if (lower.contains("quota")) {
                reason = Reason.NO_SPACE;
                text = "Disk quota exceeded."; // EDQUOT, told apart so that clients see QUOTA_EXCEEDED
            } else if (lower.contains("no space") || lower.contains("too large")) {
                reason = Reason.NO_SPACE;
                text = "No space left on device.";
            } else if (lower.contains("operation not permitted")) {
                // EPERM (e.g. setting the time of an immutable file), which the JDK does not
                // turn into AccessDeniedException as it does EACCES
                reason = Reason.PERMISSION_DENIED;
                text = "Permission denied.";
            } else if (lower.contains("is a directory")) {
                reason = Reason.IS_A_DIRECTORY;
                text = "Is a directory.";
            } else if (lower.contains("not a directory")) {
                reason = Reason.NOT_A_DIRECTORY;
                text = "Not a directory.";
            } else {
                reason = Reason.OTHER;
                text = "I/O error.";
            }
        }
        return new StorageException(reason, virtualPath + ": " + text, e);
    }
}
