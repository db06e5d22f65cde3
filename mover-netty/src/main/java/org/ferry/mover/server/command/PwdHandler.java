package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;

/** PWD (RFC 959 section 4.1.3, appendix II): {@code 257 "<cwd>" is current directory.} */
public final class PwdHandler implements CommandHandler {

    @Override
    public String verb() {
        return "PWD";
    }

    /** Session state and a reply only (no file system, nothing to wait for): on the control channel's event loop. */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(257, Quoting.quote(ctx.session().cwd()) + " is current directory.");
    }
}
