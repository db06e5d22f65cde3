package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;

/** SYST (RFC 959 section 4.1.3): {@code 215 UNIX Type: L8}, as globus answers. */
public final class SystHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SYST";
    }

    /** Session state and a reply only (no file system, nothing to wait for): on the control channel's event loop. */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return true;
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
