package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;

/**
 * ABOR (RFC 959 section 4.1.3). The control channel handler cancels a running transfer as soon as
 * ABOR arrives (the transfer command then answers {@code 426 Command Aborted.}) and runs this
 * command next, which answers {@code 226 Abort successful} (globus text, RFC 959 section 4.1, GFD.020).
 */
public final class AborHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ABOR";
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.reply(226, "Abort successful");
    }
}
