package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.StateCommandHandler;

/** NOOP (RFC 959 section 4.1.3): {@code 200 NOOP command successful.} */
public final class NoopHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "NOOP";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(200, "NOOP command successful.");
    }
}
