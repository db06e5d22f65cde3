package org.ferry.mover.server.dtp;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.util.Locale;
import org.ferry.mover.storage.StorageException;

/**
 * A DTP operation failed; carries the FTP reply code the PI answers the transfer command with
 * (RFC 959 section 4.2; RFC 959 section 4.2): 425 cannot connect, 426 connection lost,
 * 451 local error, 55x storage errors.
 */
public final class DtpException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int replyCode;

    /**
     * @param replyCode the FTP reply code, 400..599
     * @param message the reason
     */
    public DtpException(int replyCode, String message) {
        super(message);
        this.replyCode = replyCode;
    }

    /** @return the FTP reply code to answer with */
    public int replyCode() {
        return replyCode;
    }

    /**
     * Maps a local DTP failure to a reply code, the same way the single-process server does.
     *
     * @param cause what went wrong
     * @return the failure with its reply code ({@code cause} itself if it already is one)
     */
    public static DtpException of(Throwable cause) {
        if (cause instanceof DtpException dtp) {
            return dtp;
        }
        if (cause instanceof StorageException se) {
            return new DtpException(ErrorReplies.of(se).code(), se.getMessage());
        }
        if (cause instanceof ConnectException) {
            return new DtpException(425, "Can't open data connection: " + cause.getMessage());
        }
        if (cause instanceof FileSystemException fse) {
            StorageException se = StorageException.from(fse, "file");
            return new DtpException(ErrorReplies.of(se).code(), se.getMessage());
        }
        if (cause instanceof IOException io && !(cause instanceof ClosedChannelException)) {
            String text = String.valueOf(io.getMessage()).toLowerCase(Locale.ROOT);
            if (text.contains("quota")) {
                return new DtpException(552, "Transfer aborted: disk quota exceeded."); // EDQUOT
            }
            if (text.contains("no space")) {
                return new DtpException(552, "Transfer aborted: no space left on device.");
            }
        }
        if (cause instanceof IOException) {
            return new DtpException(426, "Connection closed; transfer aborted: " + cause.getMessage());
        }
        return new DtpException(451, "Local error in processing: " + cause);
    }
}
