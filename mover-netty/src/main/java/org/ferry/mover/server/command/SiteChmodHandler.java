package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * SITE CHMOD octal path (globus-gridftp-server, RFC 959 section 4.1.3 (SITE)): sets the
 * permission bits (0..777; setuid/setgid/sticky are refused). {@code 250 OK.}; {@code 501} on a bad
 * mode.
 */
public final class SiteChmodHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SITE CHMOD";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        String[] parts = argument.strip().split(" ", 2);
        if (parts.length < 2 || parts[1].isEmpty() || !parts[0].matches("[0-7]{1,3}")) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        ctx.storage().setPermissions(ctx.resolve(parts[1]), Integer.parseInt(parts[0], 8));
        ctx.reply(250, "OK.");
    }
}
