package org.ferry.mover.server.command;

import java.io.IOException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.gridmap.AuthorizationException;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PASS after GSI authentication (the Globus grid-mapfile format): the password is ignored and the
 * authenticated identity is mapped through the grid-mapfile; {@code USER :globus-mapping:} asks
 * for the default mapping. Failure: {@code 530 Login incorrect. : <reason>}. Without an
 * established GSI context it behaves exactly as {@link PassHandler}.
 */
public final class GsiPassHandler implements CommandHandler {
    private static final Logger LOG = LoggerFactory.getLogger(GsiPassHandler.class);
    private final PassHandler clearText = new PassHandler();

    @Override
    public String verb() {
        return "PASS";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        SecurityContext security = ctx.session().securityContext();
        if (security == null || !security.established()) {
            clearText.handle(ctx, argument);
            return;
        }
        ControlSession session = ctx.session();
        if (session.loggedIn()) {
            throw new FtpException(503, "You are already logged in.");
        }
        String requested = session.pendingUser();
        if (requested == null) {
            throw new FtpException(503, "Login with USER first.");
        }
        session.pendingUser(null);
        GsiServerSecurity gsi = ctx.session().gsi();
        String identity = security.peer().identity();
        try {
            String local = gsi.authorizer().authorize(identity, requested);
            session.user(local);
            LOG.info(
                    "{} authenticated by GSI from {} as {}{}, mapped to {}",
                    identity,
                    ctx.channel().remoteAddress(),
                    security.peer().limited() ? "limited proxy" : "full credential",
                    security.delegatedCredential().isPresent() ? " with delegation" : "",
                    local);
            ctx.reply(230, "User " + local + " logged in.");
        } catch (AuthorizationException e) {
            session.loginFailed();
            LOG.info("GSI login refused from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
            throw new FtpException(530, "Login incorrect. : " + e.getMessage());
        }
    }
}
