package org.ferry.mover.server.command;

import org.ferry.mover.server.listing.MlsxFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * MLSD [dir] (RFC 3659 section 7): one fact line per entry over the data channel, bare names,
 * CRLF line ends; 550 (before 150) if the path is missing or not a directory.
 */
public final class MlsdHandler implements CommandHandler {

    @Override
    public String verb() {
        return "MLSD";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isDirectory()) {
            throw new FtpException(550, path + ": Not a directory.");
        }
        Listings.send(ctx, ctx.storage().list(path), e -> MlsxFormatter.line(e, e.name()));
    }
}
