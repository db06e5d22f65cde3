package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.storage.StorageException;

/** RMD path (RFC 959 section 4.1.3): removes an empty directory; {@code 250 OK.} */
public final class RmdHandler implements CommandHandler {

    @Override
    public String verb() {
        return "RMD";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws StorageException {
        ctx.storage().removeDirectory(ctx.resolve(argument));
        ctx.reply(250, "OK.");
    }
}
