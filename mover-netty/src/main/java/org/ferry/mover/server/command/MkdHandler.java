package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.storage.StorageException;

/** MKD path (RFC 959 section 4.1.3): {@code 257 "<abs path>" directory created.}; 553 if it exists. */
public final class MkdHandler implements CommandHandler {

    @Override
    public String verb() {
        return "MKD";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws StorageException {
        String path = ctx.resolve(argument);
        ctx.storage().createDirectory(path);
        ctx.reply(257, Quoting.quote(path) + " directory created.");
    }
}
