package org.ferry.mover.server.command;

import java.time.Instant;
import org.ferry.mover.server.listing.ListFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * LIST [-opts] [path] (RFC 959 section 4.1.3): {@code ls -l} lines over the data channel; option
 * tokens are skipped and a glob in the last component is matched (RFC 959 section 4.1, GFD.020).
 */
public final class ListHandler implements CommandHandler {

    @Override
    public String verb() {
        return "LIST";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        Instant now = Instant.now();
        Listings.send(ctx, Listings.select(ctx, Listings.stripOptions(argument)), e -> ListFormatter.line(e, now));
    }
}
