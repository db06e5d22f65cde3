package org.ferry.mover.client;

import java.io.IOException;
import java.net.SocketTimeoutException;
import org.ferry.mover.protocol.FtpReply;

/**
 * Waits for a receiving server's preliminary reply to a store command (RFC 959 section 5.2: 125 or
 * 150) before anything is sent to it, where the sender would otherwise start at once. A GridFTP
 * server holds a data connection that arrives before its command; a plain FTP server may not:
 * pyftpdlib takes a connection that connects, sends a small file and closes before it read STOR
 * for an empty transfer of nothing, then waits for another that never comes.
 */
final class ReceiveStart {

    private ReceiveStart() {}

    /**
     * @param control the receiving server's control channel, the store command already sent
     * @param command the store command, for errors
     * @return the preliminary reply (125, 150 or another 1xx)
     * @throws GridFtpReplyException if the server answers with a final reply: nothing was sent, so
     *     any final reply is a refusal
     * @throws SocketTimeoutException if no reply comes within the reply timeout (ABOR sent)
     * @throws IOException if the control connection fails
     */
    static FtpReply await(ControlChannel control, String command) throws IOException {
        FtpReply reply = control.poll(control.replyTimeout().toMillis());
        if (reply == null) {
            ReplyWaiter.abort(control);
            throw new SocketTimeoutException("no reply to " + command + " from " + control.remoteAddress() + " within "
                    + control.replyTimeout().toSeconds() + " s");
        }
        if (!reply.isPreliminary()) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
        return reply;
    }
}
