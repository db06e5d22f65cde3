package org.ferry.mover.runner;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.client.GridFtpReplyException;

/** Classifies what the GridFTP client throws into {@link FaultCode}s (the Globus fault codes). */
public final class Faults {

    private Faults() {}

    /**
     * @param failure what went wrong
     * @param context what was being done, e.g. {@code "Moving /a to /b"}
     * @return the fault, with a one-line description carrying the server's reply text
     */
    public static MoverFault classify(Throwable failure, String context) {
        return new MoverFault(code(failure), context + ": " + describe(failure), onSource(failure));
    }

    /**
     * Which endpoint a failure came from: the client checks the source file first ({@code SIZE},
     * a 550 there surfaces as {@link NoSuchFileException}) and names the refused command in a
     * {@link GridFtpReplyException}, so source commands ({@code SIZE}, {@code RETR}, {@code ERET},
     * {@code MLST}) tell the source apart.
     *
     * @param failure what went wrong
     * @return true if the source endpoint reported it
     */
    public static boolean onSource(Throwable failure) {
        if (failure instanceof NoSuchFileException
                || failure instanceof AccessDeniedException
                || failure instanceof ModifiedTimeUnknownException
                || failure instanceof SourceChangedException) {
            return true;
        }
        if (failure instanceof GridFtpReplyException reply) {
            String command = String.valueOf(reply.command()).toUpperCase(Locale.ROOT);
            return command.startsWith("RETR")
                    || command.startsWith("ERET")
                    || command.startsWith("SIZE")
                    || command.startsWith("MLST");
        }
        return false;
    }

    /**
     * @param failure what went wrong
     * @return its fault code
     */
    public static FaultCode code(Throwable failure) {
        if (failure instanceof CredentialExpiredException) {
            return FaultCode.NO_CREDENTIALS;
        }
        if (failure instanceof ExternalChecksumMismatchException) {
            return FaultCode.EXTERNAL_CHECKSUM_MISMATCH;
        }
        if (failure instanceof ChecksumMismatchException) {
            return FaultCode.VERIFY_CHECKSUM;
        }
        if (failure instanceof SizeMismatchException || failure instanceof SourceChangedException) {
            return FaultCode.FILE_SIZE_CHANGED;
        }
        if (failure instanceof ModifiedTimeUnknownException) {
            return FaultCode.ENDPOINT_ERROR; // the source's listing lacks a fact: not a broken connection
        }
        if (failure instanceof NoSuchFileException) {
            return FaultCode.FILE_NOT_FOUND;
        }
        if (failure instanceof AccessDeniedException) {
            return FaultCode.PERMISSION_DENIED;
        }
        if (failure instanceof GridFtpReplyException reply) {
            String text = String.valueOf(reply.getMessage()).toLowerCase(Locale.ROOT);
            // before the 4xx rule: globus-gridftp-server answers a full disk with 451 and the errno's
            // text; RFC 959 section 4.2 has 452 (insufficient storage) and 552 (exceeded allocation)
            if (text.contains("quota")) {
                return FaultCode.QUOTA_EXCEEDED;
            }
            if (reply.replyCode() == 452
                    || reply.replyCode() == 552
                    || text.contains("no space")
                    || text.contains("insufficient storage")) {
                return FaultCode.NO_SPACE_LEFT;
            }
            if (reply.isTransient()) {
                return FaultCode.ENDPOINT_ERROR; // 4xx: try again later (RFC 959 section 4.2)
            }
            if (reply.replyCode() == 530 || text.contains("permission") || text.contains("denied")) {
                return FaultCode.PERMISSION_DENIED;
            }
            if (text.contains("not a file")
                    || text.contains("is a directory")
                    || text.contains("not a plain file")
                    || text.contains("not a regular")) {
                return FaultCode.NOT_A_FILE;
            }
            if (reply.replyCode() == 550) {
                return FaultCode.FILE_NOT_FOUND;
            }
            return FaultCode.ENDPOINT_ERROR;
        }
        if (failure instanceof ConnectException
                || failure instanceof UnknownHostException
                || failure instanceof NoRouteToHostException) {
            return FaultCode.CONNECT_FAILED;
        }
        if (failure instanceof SocketTimeoutException || failure instanceof TimeoutException) {
            return FaultCode.TIMEOUT;
        }
        if (failure instanceof EOFException
                || failure instanceof ClosedChannelException
                || failure instanceof IOException) {
            Throwable cause = failure.getCause();
            if (cause != null && cause != failure && !(cause instanceof UncheckedIOException)) {
                FaultCode inner = code(cause);
                if (inner != FaultCode.UNKNOWN) {
                    return inner;
                }
            }
            String text = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
            if (text.contains("disk quota exceeded")) {
                return FaultCode.QUOTA_EXCEEDED; // EDQUOT writing locally (two-party transfers)
            }
            if (text.contains("no space left")) {
                return FaultCode.NO_SPACE_LEFT; // ENOSPC writing locally
            }
            if (text.contains("timed out") || text.contains("timeout")) {
                return FaultCode.TIMEOUT;
            }
            if (text.contains("connection refused")) {
                return FaultCode.CONNECT_FAILED;
            }
            return FaultCode.CONNECTION_BROKEN;
        }
        return FaultCode.UNKNOWN;
    }

    /**
     * Whether a server refused a session as busy: a {@code 421} reply (RFC 959 section 4.2, "Service
     * not available, closing control connection") at connect or login, as ferry-gridftp's
     * {@code --max-sessions} and globus-gridftp-server's {@code -connections-max} answer a login
     * beyond their limit. Looks through the causes (a login failure may be wrapped).
     *
     * @param failure what went wrong
     * @return true if it is, or was caused by, a 421 reply
     */
    public static boolean refusedAsBusy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof GridFtpReplyException reply && reply.replyCode() == 421) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }
}
