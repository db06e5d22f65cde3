package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import org.ferry.mover.client.GridFtpReplyException;

/**
 * Turns a server's negative reply into the JDK's exception for it, with the reply (command, code,
 * text) as the reason. FTP codes are coarse (RFC 959 section 4.2: globus-gridftp-server answers 550
 * for a missing path, a refused permission and a wrong file type alike), so the reply text decides
 * between them as both servers word it ({@code No such file or directory}, {@code Permission
 * denied}, {@code Not a directory}, ...); where the JDK's contract needs certainty the provider asks
 * the server about the path instead (MLST).
 */
final class ReplyErrors {

    private ReplyErrors() {}

    /**
     * @param e a failure of a command about {@code path}
     * @param path the path, as the JDK's exceptions name it
     * @param other a second path (rename, copy), or null
     * @return {@code e} unchanged unless it is a {@link GridFtpReplyException}; else the JDK's
     *     exception for the reply, caused by {@code e}
     */
    static IOException translate(IOException e, String path, String other) {
        if (!(e instanceof GridFtpReplyException reply)) {
            return e;
        }
        String reason = reply.getMessage();
        String text = reason.toLowerCase(Locale.ROOT);
        FileSystemException translated;
        if (text.contains("no such file") || text.contains("not found") || text.contains("does not exist")) {
            translated = new NoSuchFileException(path, other, reason);
        } else if (reply.replyCode() == 530
                || reply.replyCode() == 532
                || text.contains("permission denied")
                || text.contains("access denied")
                || text.contains("not allowed")) {
            translated = new AccessDeniedException(path, other, reason);
        } else if (text.contains("not empty")) {
            translated = new NotEmpty(path, reason);
        } else if (text.contains("not a directory")) {
            translated = new NotADirectory(path, reason);
        } else if (text.contains("exists")) {
            translated = new FileAlreadyExistsException(path, other, reason);
        } else {
            translated = new FileSystemException(path, other, reason);
        }
        translated.initCause(e);
        return translated;
    }

    /** @return {@code e} as the JDK's exception when it is a reply; otherwise unchanged */
    static IOException translate(IOException e, String path) {
        return translate(e, path, null);
    }

    /** {@link DirectoryNotEmptyException} with the server's reply as its reason. */
    static final class NotEmpty extends DirectoryNotEmptyException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        NotEmpty(String path, String reason) {
            super(path);
            this.reason = reason;
        }

        @Override
        public String getReason() {
            return reason;
        }
    }

    /** {@link NotDirectoryException} with the server's reply as its reason. */
    static final class NotADirectory extends NotDirectoryException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        NotADirectory(String path, String reason) {
            super(path);
            this.reason = reason;
        }

        @Override
        public String getReason() {
            return reason;
        }
    }
}
