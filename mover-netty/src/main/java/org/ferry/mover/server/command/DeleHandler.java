package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/** DELE path (RFC 959 section 4.1.3): deletes a file (a link itself, not its target); {@code 250 OK.} */
public final class DeleHandler implements CommandHandler {

    @Override
    public String verb() {
        return "DELE";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        ctx.storage().delete(ctx.resolve(argument));
        ctx.reply(250, "OK.");
    }
}
