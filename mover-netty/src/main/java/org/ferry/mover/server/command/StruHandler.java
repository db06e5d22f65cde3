package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/** STRU F (RFC 959 section 4.1.2): only file structure; {@code 200 STRU F ok.} */
public final class StruHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "STRU";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        if (!argument.strip().equalsIgnoreCase("F")) {
            throw new FtpException(501, "Syntax error in parameter.");
        }
        ctx.reply(200, "STRU F ok.");
    }
}
