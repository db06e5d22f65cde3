package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.listing.ListFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * STAT [path] (RFC 959 section 4.1.3; globus text in RFC 959 section 4.1, GFD.020): without an
 * argument {@code 212 GridFTP server status.}; with a path {@code 213-status of <path>}, its
 * {@code ls -l} line, {@code 213 End.} (a directory gives the line of the directory itself).
 */
public final class StatHandler implements CommandHandler {

    @Override
    public String verb() {
        return "STAT";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        if (argument.isBlank()) {
            ctx.reply(212, "GridFTP server status.");
            return;
        }
        String path = ctx.resolve(argument.strip());
        FileStat stat = ctx.storage().stat(path);
        ctx.reply(FtpReply.multiline(
                213, "status of " + path, List.of(" " + ListFormatter.line(stat, java.time.Instant.now())), "End."));
    }
}
