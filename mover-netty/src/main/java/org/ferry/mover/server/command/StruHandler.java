package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;

/** STRU F (RFC 959 section 4.1.2): only file structure; {@code 200 STRU F ok.} */
public final class StruHandler implements CommandHandler {

    @Override
    public String verb() {
        return "STRU";
    }

    /** Session state and a reply only (no file system, nothing to wait for): on the control channel's event loop. */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        if (!argument.strip().equalsIgnoreCase("F")) {
            throw new FtpException(501, "Syntax error in parameter.");
        }
        ctx.reply(200, "STRU F ok.");
    }
}
