package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.listing.MlsxFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * MLSC [path] (globus-gridftp-server, RFC 959 section 4.1, GFD.020): an MLSD listing sent over
 * the control channel instead of a data connection: {@code 250-Contents of <path>}, one entry line
 * (RFC 3659 section 7.2 format, leading space) per entry, {@code 250 End.} Needs no PASV/PORT.
 * {@code 550} if the path is not a directory.
 */
public final class MlscHandler implements CommandHandler {

    @Override
    public String verb() {
        return "MLSC";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isDirectory()) {
            throw new FtpException(550, path + ": Not a directory.");
        }
        List<String> lines = new ArrayList<>();
        for (FileStat entry : ctx.storage().list(path)) {
            lines.add(" " + MlsxFormatter.line(entry, entry.name()));
        }
        ctx.reply(FtpReply.multiline(250, "Contents of " + path, lines, "End."));
    }
}
