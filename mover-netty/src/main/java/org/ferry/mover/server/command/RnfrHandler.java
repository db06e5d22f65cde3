package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * RNFR path (RFC 959 section 4.1.3): remembers an existing path for the immediately following
 * RNTO. {@code 350 OK. Send RNTO with destination name.}; 550 if missing.
 */
public final class RnfrHandler implements CommandHandler {

    @Override
    public String verb() {
        return "RNFR";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        if (path.equals("/")) {
            throw new FtpException(550, "/: Permission denied.");
        }
        ctx.storage().stat(path);
        ctx.session().renameFrom(path);
        ctx.reply(350, "OK. Send RNTO with destination name.");
    }
}
