package org.ferry.mover.server.command;

import java.util.List;
import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * OPTS command-name [options] (RFC 2389 section 4) for everything but {@code OPTS RETR}:
 * {@code OPTS UTF8 ON} (RFC 2640; paths are always UTF-8 here) and {@code OPTS MLST facts;}
 * (RFC 3659 section 7.9; all supported facts are always sent, so the selection is acknowledged
 * and ignored). Anything else: {@code 501}.
 */
public final class OptsHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "OPTS";
    }

    @Override
    public List<String> features() {
        return List.of("UTF8");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String upper = argument.strip().toUpperCase(Locale.ROOT);
        if (upper.equals("UTF8 ON") || upper.equals("UTF-8 ON") || upper.equals("UTF8")) {
            ctx.reply(200, "UTF8 mode enabled.");
        } else if (upper.startsWith("MLST") || upper.startsWith("MLSD")) {
            ctx.reply(200, "MLST OPTS Type;Size;Modify;Perm;UNIX.mode;");
        } else {
            throw new FtpException(501, "OPTS failed.");
        }
    }
}
