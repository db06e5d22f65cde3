package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/** USER name (RFC 959 section 4.1.1): remembers the name and asks for a password with 331. */
public final class UserHandler implements CommandHandler {

    @Override
    public String verb() {
        return "USER";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        if (ctx.session().loggedIn()) {
            throw new FtpException(503, "You are already logged in.");
        }
        if (argument.isBlank()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        ctx.session().pendingUser(argument.strip());
        ctx.reply(331, "Password required for " + argument.strip() + ".");
    }
}
