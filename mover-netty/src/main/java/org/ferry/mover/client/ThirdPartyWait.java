package org.ferry.mover.client;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.ferry.mover.protocol.FtpReply;

/**
 * Waits for the two final replies of a third-party transfer (RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode"): the
 * source's RETR and the destination's STOR, polling both control channels so that a failure on
 * either side is seen at once (a {@link Wakeup} shared by both, never a timed wait on one side).
 * Markers (111/112) from either side go to the {@link MarkerParser}
 * and count as signs of life for the timeout. On a failure reply from one side, sends ABOR to the
 * other if it has not finished, and throws.
 */
final class ThirdPartyWait {

    private static final long POLL_MILLIS = 50;

    private final ControlChannel source;
    private final String sourceCommand;
    private final ControlChannel destination;
    private final String destinationCommand;
    private final MarkerParser markers;

    ThirdPartyWait(
            ControlChannel source,
            String sourceCommand,
            ControlChannel destination,
            String destinationCommand,
            MarkerParser markers) {
        this.source = source;
        this.sourceCommand = sourceCommand;
        this.destination = destination;
        this.destinationCommand = destinationCommand;
        this.markers = markers;
    }

    /**
     * @param inactivityTimeout how long both sides may stay silent
     * @throws GridFtpReplyException if either side answers with a failure
     * @throws IOException on a broken connection or a timeout (both sides are sent ABOR)
     */
    void await(Duration inactivityTimeout) throws IOException {
        FtpReply sourceFinal = null;
        FtpReply destinationFinal = null;
        long lastSign = System.nanoTime();
        Wakeup wakeup = new Wakeup();
        source.wakeup(wakeup);
        destination.wakeup(wakeup);
        try {
            while (sourceFinal == null || destinationFinal == null) {
                boolean heard = false;
                FtpReply reply;
                while (sourceFinal == null && (reply = source.poll(0)) != null) {
                    heard = true;
                    if (reply.isPreliminary()) {
                        markers.accept(reply);
                    } else {
                        sourceFinal = reply;
                        check(reply, sourceCommand);
                    }
                }
                while (destinationFinal == null && (reply = destination.poll(0)) != null) {
                    heard = true;
                    if (reply.isPreliminary()) {
                        markers.accept(reply);
                    } else {
                        destinationFinal = reply;
                        check(reply, destinationCommand);
                    }
                }
                if (heard) {
                    lastSign = System.nanoTime();
                } else if (System.nanoTime() - lastSign > inactivityTimeout.toNanos()) {
                    throw new SocketTimeoutException(
                            "third-party transfer: no reply or marker for " + inactivityTimeout.toSeconds() + " s");
                } else {
                    wakeup.await(POLL_MILLIS);
                }
            }
        } catch (IOException e) {
            if (sourceFinal == null) {
                DefaultGridFtpSession.abort(source);
            }
            if (destinationFinal == null) {
                DefaultGridFtpSession.abort(destination);
            }
            throw e;
        } finally {
            source.wakeup(null);
            destination.wakeup(null);
        }
    }

    private static void check(FtpReply reply, String command) throws GridFtpReplyException {
        if (!reply.isPositiveCompletion()) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }
}
