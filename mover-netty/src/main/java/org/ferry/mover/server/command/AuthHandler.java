package org.ferry.mover.server.command;

import org.ferry.gsi.context.GsiContextException;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.GsiServerSecurity;

/**
 * AUTH mechanism (RFC 2228 section 3): {@code AUTH GSSAPI} starts a GSI context and answers
 * {@code 334 Using authentication type; ADAT must follow.}; other mechanisms get 504
 * (RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism step 1). Only registered when the server has GSI settings.
 */
public final class AuthHandler implements CommandHandler {

    @Override
    public String verb() {
        return "AUTH";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        if (!argument.strip().equalsIgnoreCase("GSSAPI")) {
            throw new FtpException(504, "Unknown authentication type.");
        }
        if (ctx.session().loggedIn() || ctx.session().securityContext() != null) {
            throw new FtpException(503, "Security data exchange already started.");
        }
        GsiServerSecurity gsi = ctx.session().gsi();
        if (gsi == null) {
            throw new FtpException(504, "Unknown authentication type.");
        }
        try {
            ctx.session().securityContext(gsi.newAcceptor());
        } catch (GsiContextException e) {
            throw new FtpException(530, "Could not load server credential: " + e.getMessage());
        }
        ctx.reply(334, "Using authentication type; ADAT must follow.");
    }
}
