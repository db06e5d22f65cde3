package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/** SIZE path (RFC 3659 section 4): {@code 213 <bytes>}; 550 for a missing path or a directory. */
public final class SizeHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SIZE";
    }

    @Override
    public List<String> features() {
        return List.of("SIZE");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": not a plain file.");
        }
        ctx.reply(213, Long.toString(stat.sizeBytes()));
    }
}
