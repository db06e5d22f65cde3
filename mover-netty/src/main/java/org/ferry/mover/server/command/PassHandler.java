package org.ferry.mover.server.command;

import java.util.Set;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PASS password (RFC 959 section 4.1.1): logs in anonymous users ({@code anonymous}, {@code ftp},
 * any password, when allowed; RFC 959 section 4.1.1, RFC 2228 section 3) or asks the configured
 * {@link org.ferry.mover.server.pi.Authenticator}. 230 on success, 530 on failure (the third failure
 * in a session also closes the control channel), 503 without USER.
 */
public final class PassHandler implements CommandHandler {

    /** Login names treated as anonymous (globus {@code -anonymous-names-allowed} default). */
    public static final Set<String> ANONYMOUS_NAMES = Set.of("anonymous", "ftp");

    /** Failed PASS attempts after which the control channel is closed (slows password guessing). */
    public static final int MAX_FAILED_LOGINS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(PassHandler.class);

    @Override
    public String verb() {
        return "PASS";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        ControlSession session = ctx.session();
        if (session.loggedIn()) {
            throw new FtpException(503, "You are already logged in.");
        }
        String user = session.pendingUser();
        if (user == null) {
            throw new FtpException(503, "Login with USER first.");
        }
        session.pendingUser(null);
        boolean ok = ANONYMOUS_NAMES.contains(user)
                ? ctx.config().anonymousAllowed()
                : ctx.config().authenticator().authenticate(user, argument);
        if (!ok) {
            session.loginFailed();
            LOG.info("login of {} from {} refused", user, ctx.channel().remoteAddress());
            if (session.failedLogins() >= MAX_FAILED_LOGINS) {
                ctx.replyAndClose(530, "Login incorrect.");
                return;
            }
            throw new FtpException(530, "Login incorrect.");
        }
        LOG.info("{} logged in from {}", user, ctx.channel().remoteAddress());
        session.user(user);
        ctx.reply(230, "User " + user + " logged in.");
    }
}
