package org.ferry.mover.server.command;

import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * EPRT |proto|address|port| (RFC 2428 section 2): like PORT for IPv4 and IPv6, any host but no
 * port below 1024 (RFC 2577 section 3). {@code 200 EPRT Command successful.}; 501 when malformed,
 * 522 for an unknown protocol, 504 for a privileged port.
 */
public final class EprtHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "EPRT";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        ctx.session().dataEndpoint(new DataEndpoint.Active(DataPorts.unprivileged(DataPorts.parseEprt(argument))));
        ctx.reply(200, "EPRT Command successful.");
    }
}
