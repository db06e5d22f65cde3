package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * CWD path (RFC 959 section 4.1.1): {@code 250 CWD command successful.}; 550 if missing, not a
 * directory or outside the root.
 */
public final class CwdHandler implements CommandHandler {

    @Override
    public String verb() {
        return "CWD";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        changeTo(ctx, argument.isEmpty() ? "/" : argument);
    }

    static void changeTo(CommandContext ctx, String argument) throws FtpException, StorageException {
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isDirectory()) {
            throw new FtpException(550, path + ": Not a directory.");
        }
        ctx.session().cwd(path);
        ctx.reply(250, "CWD command successful.");
    }
}
