package org.ferry.mover.server.command;

import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.DataProtectionState;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;

/**
 * When a transfer command runs striped over the data transfer processes (the Globus striped
 * server, SC'05 paper section 5; GFD.020 "SPAS"/"SPOR"), and what it needs then.
 */
final class Stripes {

    private Stripes() {}

    /**
     * @return the DTPs' listener when the session's endpoint is a striped PASV/SPAS (the receive is
     *     striped), else null (the plain handler runs the command)
     */
    static StripedPassiveListener listener(ControlSession session) {
        return session.dataEndpoint() instanceof DataEndpoint.Passive passive
                        && passive.listener() instanceof StripedPassiveListener listener
                ? listener
                : null;
    }

    /**
     * Checks that a striped transfer may run: MODE E (striping is MODE E only), and clear data
     * channels, since stripe connections (made by the data nodes, or by the striped sender) carry
     * no DCAU handshake and no TLS: a client that asked for DCAU or PROT must not get plain data.
     *
     * @throws FtpException 503 outside MODE E; 504 when DCAU is not N or PROT is not C
     */
    static void requireStripable(CommandContext ctx) throws FtpException {
        if (ctx.session().mode() != TransferMode.EXTENDED_BLOCK) {
            throw new FtpException(503, "Bad sequence of commands: striped transfers need MODE E.");
        }
        DataProtectionState protection = ctx.session().dataProtection();
        if (protection.dcau(ctx.session()).authenticates() || protection.protection() != ProtectionLevel.CLEAR) {
            throw new FtpException(
                    504,
                    "Striped transfers carry no data channel authentication or protection:"
                            + " send DCAU N and PROT C first.");
        }
    }
}
