package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/** CDUP (RFC 959 section 4.1.1): CWD to the parent; at {@code /} it is refused with 550. */
public final class CdupHandler implements CommandHandler {

    @Override
    public String verb() {
        return "CDUP";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        CwdHandler.changeTo(ctx, "..");
    }
}
