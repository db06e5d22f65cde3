package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/** NLST [path] (RFC 959 section 4.1.3): entry names only, one per CRLF line, over the data channel. */
public final class NlstHandler implements CommandHandler {

    @Override
    public String verb() {
        return "NLST";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        Listings.send(ctx, Listings.select(ctx, Listings.stripOptions(argument)), e -> e.name());
    }
}
