package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;

/** QUIT (RFC 959 section 4.1.1): {@code 221 Goodbye.} and close the control channel. */
public final class QuitHandler implements CommandHandler {

    @Override
    public String verb() {
        return "QUIT";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.replyAndClose(221, "Goodbye.");
    }
}
