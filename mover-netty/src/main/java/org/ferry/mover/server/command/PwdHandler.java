package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.StateCommandHandler;

/** PWD (RFC 959 section 4.1.3, appendix II): {@code 257 "<cwd>" is current directory.} */
public final class PwdHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "PWD";
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(257, Quoting.quote(ctx.session().cwd()) + " is current directory.");
    }
}
