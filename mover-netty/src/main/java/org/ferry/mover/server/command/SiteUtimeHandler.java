package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * SITE UTIME YYYYMMDDHHMMSS path (globus-gridftp-server, RFC 959 section 4.1.3 (SITE)): the
 * same as MFMT. {@code 250 OK.}
 */
public final class SiteUtimeHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SITE UTIME";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        MfmtHandler.setTime(ctx, argument);
        ctx.reply(250, "OK.");
    }
}
