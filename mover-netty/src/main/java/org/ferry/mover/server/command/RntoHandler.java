package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * RNTO path (RFC 959 section 4.1.3): renames the RNFR path; {@code 250 OK.};
 * {@code 503 Bad sequence of commands.} without a preceding RNFR.
 */
public final class RntoHandler implements CommandHandler {

    @Override
    public String verb() {
        return "RNTO";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        String from = ctx.session().renameFrom();
        if (from == null) {
            throw new FtpException(503, "Bad sequence of commands.");
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        ctx.storage().rename(from, ctx.resolve(argument));
        ctx.reply(250, "OK.");
    }
}
