package org.ferry.scheduler.execution;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import org.ferry.api.domain.EventCode;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.scheduler.plan.PlanningException;

/** Maps exceptions of the GridFTP client to fault codes (service-semantics b.5). */
public final class FaultClassifier {

    private FaultClassifier() {
    }

    /**
     * @param failure what went wrong
     * @param context what was being done, e.g. {@code "moving /a/b"}
     * @return the fault with a one-line description carrying the server's reply text
     */
    public static Fault classify(Throwable failure, String context) {
        String message = context + ": " + describe(failure);
        return new Fault(code(failure), message);
    }

    private static EventCode code(Throwable failure) {
        if (failure instanceof PlanningException planning) {
            return planning.code();
        }
        if (failure instanceof ChecksumMismatchException) {
            return EventCode.VERIFY_CHECKSUM;
        }
        if (failure instanceof NoSuchFileException) {
            return EventCode.FILE_NOT_FOUND;
        }
        if (failure instanceof AccessDeniedException) {
            return EventCode.PERMISSION_DENIED;
        }
        if (failure instanceof GridFtpReplyException reply) {
            String text = String.valueOf(reply.getMessage()).toLowerCase(Locale.ROOT);
            if (reply.replyCode() == 530 || text.contains("permission") || text.contains("denied")) {
                return EventCode.PERMISSION_DENIED;
            }
            if (reply.replyCode() == 550) {
                return EventCode.FILE_NOT_FOUND;
            }
            return EventCode.ENDPOINT_ERROR;
        }
        if (failure instanceof ConnectException || failure instanceof UnknownHostException
                || failure instanceof NoRouteToHostException) {
            return EventCode.CONNECT_FAILED;
        }
        if (failure instanceof SocketTimeoutException || failure instanceof TimeoutException) {
            return EventCode.TIMEOUT;
        }
        if (failure instanceof EOFException || failure instanceof ClosedChannelException
                || failure instanceof java.io.IOException) {
            Throwable cause = failure.getCause();
            if (cause != null && cause != failure && !(cause instanceof java.io.UncheckedIOException)) {
                EventCode inner = code(cause);
                if (inner != EventCode.UNKNOWN) {
                    return inner;
                }
            }
            String text = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
            if (text.contains("timed out") || text.contains("timeout")) {
                return EventCode.TIMEOUT;
            }
            if (text.contains("connection refused")) {
                return EventCode.CONNECT_FAILED;
            }
            return EventCode.CONNECTION_BROKEN;
        }
        return EventCode.UNKNOWN;
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }
}
