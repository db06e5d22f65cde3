package org.ferry.mover.server.pi;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.ferry.mover.data.DataEndpoint;

/**
 * When a sending transfer's preliminary reply (150/125, RFC 959 section 4.2) leaves: at once,
 * before the file is read ({@link CommandContext#replyPromptly}), or with the replies that follow
 * it. globus-url-copy, when it receives the data itself, reads a MODE E block's header and then
 * waits on the control channel for that reply before it reads the payload: sent at once, the reply
 * wakes it while the server still reads the file. When the data goes elsewhere (a third-party
 * transfer) the client reads no data, and a reply of its own costs it a second wake-up per file on
 * the cores the servers need; then it goes with the others.
 *
 * <p>The data goes to the control client when the session connects to an address of the control
 * connection's peer (PORT/EPRT) on a port on which this server does not accept itself: a transfer
 * between two sessions of one server (Globus's copy within one endpoint) connects to one of its own
 * listeners on its own host. A third-party transfer between two processes on one host looks like a
 * download and gets the prompt reply; across hosts the addresses differ.
 */
final class PreliminaryReplyTiming {

    private PreliminaryReplyTiming() {}

    /**
     * @param ctx the session: its control channel's remote address, and the ports this server
     *     accepts data connections on ({@link CommandContext#acceptsDataOn})
     * @param endpoint the session's data endpoint for the transfer
     * @return true when the reply should leave at once: the endpoint is active, on the control
     *     peer's IP address, and not on a port this server accepts on; false also when the control
     *     peer's address is not an IP address
     */
    static boolean prompt(CommandContext ctx, DataEndpoint endpoint) {
        InetSocketAddress control = ctx.peerAddress();
        if (!(endpoint instanceof DataEndpoint.Active active) || control == null) {
            return false;
        }
        InetAddress dataHost = active.address().getAddress();
        return dataHost != null
                && dataHost.equals(control.getAddress())
                && !ctx.acceptsDataOn(active.address().getPort());
    }
}
