package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.listing.MlsxFormatter;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * MLST [path] (RFC 3659 section 7) on the control channel: {@code 250-status of <p>} /
 * {@code " <facts> <p>"} / {@code 250 End.} (globus layout, RFC 959 section 4.1, GFD.020).
 */
public final class MlstHandler implements CommandHandler {

    @Override
    public String verb() {
        return "MLST";
    }

    @Override
    public List<String> features() {
        return List.of(MlsxFormatter.FEATURE);
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws StorageException {
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        String shown = argument.isEmpty() ? path : argument;
        ctx.reply(FtpReply.multiline(250, "status of " + shown, List.of(" " + MlsxFormatter.line(stat, path)), "End."));
    }
}
