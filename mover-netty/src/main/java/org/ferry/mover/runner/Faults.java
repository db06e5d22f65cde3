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
        return new MoverFault(code(failure), context + ": " + describe(failure));
    }

    /**
     * @param failure what went wrong
     * @return its fault code
     */
    public static FaultCode code(Throwable failure) {
        if (failure instanceof CredentialExpiredException) {
            return FaultCode.NO_CREDENTIALS;
        }
        if (failure instanceof ChecksumMismatchException) {
            return FaultCode.VERIFY_CHECKSUM;
        }
        if (failure instanceof NoSuchFileException) {
            return FaultCode.FILE_NOT_FOUND;
        }
        if (failure instanceof AccessDeniedException) {
            return FaultCode.PERMISSION_DENIED;
        }
        if (failure instanceof GridFtpReplyException reply) {
            String text = String.valueOf(reply.getMessage()).toLowerCase(Locale.ROOT);
            if (reply.replyCode() == 530 || text.contains("permission") || text.contains("denied")) {
                return FaultCode.PERMISSION_DENIED;
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

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }
}
