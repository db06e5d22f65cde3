package org.ferry.mover.server.command;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.server.dtp.DtpException;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;

/**
 * PASV (RFC 959 section 4.1.2): opens a data listener on the address the client reached the
 * control channel on and answers {@code 227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)}. A previous
 * listener is closed. 522 if the control channel is not IPv4 (use EPSV).
 */
public final class PasvHandler implements CommandHandler {

    private final StripedDtp dtp;
    private final AtomicInteger next = new AtomicInteger(); // the data node of the next head node PASV

    /**
     * @param dtp the server's DTPs: on a head node, PASV in MODE E opens its listener on a data node,
     *     taking them in turn, so the following STOR is a one-stripe striped receive (SC'05 paper
     *     section 5); in stream mode and without data nodes, the PI's own listener
     */
    public PasvHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

    @Override
    public String verb() {
        return "PASV";
    }

    /**
     * On the control channel's event loop when the listener is the PI's own (bound at once, no
     * future to wait for); a head node's MODE E PASV asks a data node over its link, off the loop.
     */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return !(dtp.remote() && session.mode() == TransferMode.EXTENDED_BLOCK);
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        if (dtp.remote() && ctx.session().mode() == TransferMode.EXTENDED_BLOCK) {
            onDataNode(ctx);
            return;
        }
        InetAddress local = ctx.localAddress();
        if (!(local instanceof Inet4Address)) {
            throw new FtpException(522, "Network protocol not supported, use EPSV.");
        }
        PassiveListener listener = open(ctx, local);
        ctx.reply(227, "Entering Passive Mode (" + HostPort.format(listener.address()) + ")");
    }

    static PassiveListener open(CommandContext ctx, InetAddress local) throws FtpException {
        ctx.session().dataEndpoint(null);
        try {
            PassiveListener listener = ctx.transfers().listen(local);
            ctx.session().dataEndpoint(new DataEndpoint.Passive(listener));
            return listener;
        } catch (IOException | RuntimeException e) {
            throw new FtpException(425, "Can't open passive data listener: " + e.getMessage());
        }
    }

    private void onDataNode(CommandContext ctx) throws FtpException {
        InetAddress local = ctx.localAddress();
        if (!(local instanceof Inet4Address)) {
            throw new FtpException(522, "Network protocol not supported, use EPSV.");
        }
        ctx.session().dataEndpoint(null);
        StripedPassiveListener listener;
        try {
            listener = dtp.listenOn(next.getAndIncrement(), local);
        } catch (DtpException e) {
            throw new FtpException(e.replyCode(), e.getMessage());
        }
        if (!(listener.address().getAddress() instanceof Inet4Address)) {
            listener.close();
            throw new FtpException(522, "Network protocol not supported, use EPSV.");
        }
        ctx.session().dataEndpoint(new DataEndpoint.Passive(listener));
        ctx.reply(227, "Entering Passive Mode (" + HostPort.format(listener.address()) + ")");
    }
}
