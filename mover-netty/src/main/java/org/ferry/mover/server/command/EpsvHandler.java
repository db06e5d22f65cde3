package org.ferry.mover.server.command;

import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * EPSV [1|2|ALL] (RFC 2428 section 3): like PASV, answered
 * {@code 229 Entering Extended Passive Mode (|||port|)}; {@code EPSV ALL} is acknowledged. A
 * listener bound at once (no future to wait for) and a reply: on the control channel's event loop.
 */
public final class EpsvHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "EPSV";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String arg = argument.strip();
        if (arg.equalsIgnoreCase("ALL")) {
            ctx.reply(229, "EPSV ALL Successful.");
            return;
        }
        if (!arg.isEmpty() && !arg.equals("1") && !arg.equals("2")) {
            throw new FtpException(522, "Network protocol not supported, use (1,2).");
        }
        PassiveListener listener = PasvHandler.open(ctx, ctx.localAddress());
        ctx.reply(
                229, "Entering Extended Passive Mode (|||" + listener.address().getPort() + "|)");
    }
}
