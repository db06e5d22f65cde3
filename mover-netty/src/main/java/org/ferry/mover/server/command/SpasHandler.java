package org.ferry.mover.server.command;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.server.dtp.DtpException;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/**
 * SPAS (GFD.020 "Striped Passive"; reply format in RFC 959 section 4.1.2, RFC 2428, GFD.020 "SPAS"/"SPOR"): opens one
 * passive listener per DTP (per data node on a head node, one on a single-process server) and
 * answers {@code 229-Entering Striped Passive Mode.}, one {@code  h1,h2,h3,h4,p1,p2} line per
 * stripe, {@code 229 End}. SPAS goes with receiving commands (STOR) in MODE E. A previous listener
 * is closed. {@code SPAS 2} (IPv6) and a non-IPv4 address get 522; a DTP that cannot listen 425.
 */
public final class SpasHandler implements CommandHandler {

    private final StripedDtp dtp;

    /** @param dtp the server's DTPs */
    public SpasHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

    @Override
    public String verb() {
        return "SPAS";
    }

    @Override
    public List<String> features() {
        return List.of("SPAS");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        InetAddress local = ctx.localAddress();
        if (!argument.isBlank() || !(local instanceof Inet4Address)) {
            throw new FtpException(522, "Network protocol not supported, use (1).");
        }
        ctx.session().dataEndpoint(null);
        StripedPassiveListener listener;
        try {
            listener = dtp.listen(local);
        } catch (DtpException e) {
            throw new FtpException(e.replyCode(), e.getMessage());
        }
        List<String> lines = new ArrayList<>();
        for (InetSocketAddress address : listener.addresses()) {
            if (!(address.getAddress() instanceof Inet4Address)) {
                listener.close();
                throw new FtpException(522, "Network protocol not supported, use (1).");
            }
            lines.add(" " + HostPort.format(address));
        }
        ctx.session().dataEndpoint(new DataEndpoint.Passive(listener));
        ctx.reply(FtpReply.multiline(229, "Entering Striped Passive Mode.", lines, "End"));
    }
}
