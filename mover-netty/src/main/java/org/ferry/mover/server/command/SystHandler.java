package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.StateCommandHandler;

/** SYST (RFC 959 section 4.1.3): {@code 215 UNIX Type: L8}, as globus answers. */
public final class SystHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "SYST";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(215, "UNIX Type: L8");
    }
}
