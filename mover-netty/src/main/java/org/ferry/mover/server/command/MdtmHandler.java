package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.listing.MlsxFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.storage.StorageException;

/** MDTM path (RFC 3659 section 3): {@code 213 YYYYMMDDHHMMSS}, UTC; 550 if missing. */
public final class MdtmHandler implements CommandHandler {

    @Override
    public String verb() {
        return "MDTM";
    }

    @Override
    public List<String> features() {
        return List.of("MDTM");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws StorageException {
        String path = ctx.resolve(argument);
        ctx.reply(213, MlsxFormatter.TIME.format(ctx.storage().stat(path).modified()));
    }
}
