package org.ferry.mover.client;

import java.io.IOException;
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
     * Waits with the source's reply timeout as the inactivity timeout.
     *
     * @throws GridFtpReplyException if either side answers with a failure
     * @throws IOException on a broken connection or a timeout (both sides are sent ABOR)
     */
    void await() throws IOException {
        FtpReply sourceFinal = null;
        FtpReply destinationFinal = null;
        try (ReplyWaiter waiter =
                new ReplyWaiter(source.replyTimeout()).watch(source).watch(destination)) {
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
                        if (reply.code() == 125 || reply.code() == 150) {
                            markers.receiveStarted();
                        }
                        markers.accept(reply);
                    } else {
                        destinationFinal = reply;
                        check(reply, destinationCommand);
                    }
                }
                if (heard) {
                    waiter.alive();
                } else {
                    waiter.checkAlive("third-party transfer");
                    waiter.pause();
                }
            }
        } catch (IOException e) {
            if (sourceFinal == null) {
                ReplyWaiter.abort(source);
            }
            if (destinationFinal == null) {
                ReplyWaiter.abort(destination);
            }
            throw e;
        }
    }

    private static void check(FtpReply reply, String command) throws GridFtpReplyException {
        if (!reply.isPositiveCompletion()) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }
}
