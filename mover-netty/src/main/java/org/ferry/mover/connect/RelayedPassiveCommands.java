package org.ferry.mover.connect;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/**
 * The agent's passive mode: PASV and EPSV (RFC 959 section 4.1.2, RFC 2428 section 3) open a data
 * listener on loopback and a port on the relay that leads to it through the agent's own outbound
 * connection, and announce the relay's port; the port closes with the listener. A peer that cannot
 * be dialled (another agent) reaches this agent's data channel that way; any other peer should be
 * dialled instead (PORT): the {@value #FEATURE} FEAT line tells clients so. SPAS is refused (no
 * striping here).
 */
public final class RelayedPassiveCommands {

    /** FEAT line of a server that should dial its data connections itself: its PASV is relayed. */
    public static final String FEATURE = org.ferry.mover.protocol.DialOut.FEATURE;

    private RelayedPassiveCommands() {}

    /**
     * @param relay opens relay ports
     * @return the PASV, EPSV and SPAS handlers that replace the standard ones
     */
    public static List<CommandHandler> handlers(RelayPorts relay) {
        return List.of(new Pasv(relay, false), new Pasv(relay, true), new Spas());
    }

    private static final class Pasv implements CommandHandler {
        private final RelayPorts relay;
        private final boolean extended;

        Pasv(RelayPorts relay, boolean extended) {
            this.relay = relay;
            this.extended = extended;
        }

        @Override
        public String verb() {
            return extended ? "EPSV" : "PASV";
        }

        @Override
        public List<String> features() {
            return extended ? List.of() : List.of(FEATURE);
        }

        @Override
        public void handle(CommandContext ctx, String argument) throws FtpException {
            if (extended) {
                String arg = argument.strip();
                if (arg.equalsIgnoreCase("ALL")) {
                    ctx.reply(229, "EPSV ALL Successful.");
                    return;
                }
                if (!arg.isEmpty() && !arg.equals("1")) {
                    throw new FtpException(522, "Network protocol not supported, use (1).");
                }
            }
            ctx.session().dataEndpoint(null);
            PassiveListener listener;
            try {
                listener = ctx.transfers().listen(InetAddress.getLoopbackAddress());
            } catch (IOException | RuntimeException e) {
                throw new FtpException(425, "Can't open passive data listener: " + e.getMessage());
            }
            InetSocketAddress relayed;
            try {
                relayed = relay.open(listener.address().getPort());
            } catch (IOException e) {
                listener.close();
                throw new FtpException(425, "Can't open a passive port on the relay: " + e.getMessage());
            }
            listener.whenClosed(() -> relay.close(relayed));
            ctx.session().dataEndpoint(new DataEndpoint.Passive(listener));
            if (extended) {
                ctx.reply(229, "Entering Extended Passive Mode (|||" + relayed.getPort() + "|)");
            } else {
                ctx.reply(227, "Entering Passive Mode (" + HostPort.format(relayed) + ")");
            }
        }
    }

    private static final class Spas implements CommandHandler {
        @Override
        public String verb() {
            return "SPAS";
        }

        @Override
        public void handle(CommandContext ctx, String argument) throws FtpException {
            throw new FtpException(502, "SPAS is not available on a Ferry Connect endpoint; use PASV.");
        }
    }
}
