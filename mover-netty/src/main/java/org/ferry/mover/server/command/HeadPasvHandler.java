package org.ferry.mover.server.command;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.server.dtp.DtpException;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;

/**
 * PASV on a head node (RFC 959 section 4.1.2; SC'05 paper section 5): in MODE E the listener is
 * opened on one data node, taking the data nodes in turn, so that an upload from a non-striped
 * client runs on a DTP too and the following STOR is a one-stripe striped receive. In stream mode
 * (listings, stream transfers), and on a server without data nodes, it is the ordinary
 * {@link PasvHandler}: the PI's own DTP.
 */
public final class HeadPasvHandler extends StripedFallbackHandler {

    private final AtomicInteger next = new AtomicInteger();

    /** @param dtp the server's DTPs */
    public HeadPasvHandler(StripedDtp dtp) {
        super(dtp, new PasvHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        if (!dtp.remote() || ctx.session().mode() != TransferMode.EXTENDED_BLOCK) {
            plain.handle(ctx, argument);
            return;
        }
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
