package org.ferry.mover.server.command;

import org.ferry.mover.server.CommandContext;

/** ALLO n (RFC 959 section 4.1.3): no pre-allocation needed; {@code 200 ALLO command successful.} */
public final class AlloHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ALLO";
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(200, "ALLO command successful.");
    }
}
