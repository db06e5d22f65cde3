package org.ferry.mover.server.pi;

import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.protocol.FtpCommand;
import org.ferry.mover.protocol.FtpReply;

/**
 * Which commands may run while a GSI login is pending, decided before any command handler as
 * globus-gridftp-server's control channel security layer does (its states READING_AUTH and
 * READING_ADAT; RFC 959 section 4.1.1, RFC 2228 section 3; RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism step 2): between {@code AUTH GSSAPI} and the end
 * of the ADAT exchange only {@code ADAT} and {@code QUIT} run; before {@code AUTH}, on a server
 * without clear-text logins ({@link GridFtpServerConfig#clearTextLoginsAllowed()}), only
 * {@code AUTH} and {@code QUIT}. Anything else gets {@link #MUST_AUTHENTICATE} and the session goes
 * on: the ADAT exchange can continue where it was. (RFC 2228 section 3 would answer a command out
 * of sequence with 503; globus answers 530, and clients are written against globus.) Stateless.
 */
public final class GsiAuthenticationGate {

    /** globus-gridftp-server's reply to a command that needs GSI authentication first. */
    public static final FtpReply MUST_AUTHENTICATE = FtpReply.of(530, "Must perform GSSAPI authentication.");

    private GsiAuthenticationGate() {}

    /**
     * @param ctx the session (its channel carries the GSI settings and context)
     * @param command the command about to run
     * @return null if it may run, else {@link #MUST_AUTHENTICATE}
     */
    static FtpReply check(CommandContext ctx, FtpCommand command) {
        if (ctx.session().gsi() == null || ctx.session().loggedIn()) {
            return null;
        }
        String verb = command.verb();
        if ("QUIT".equals(verb)) {
            return null;
        }
        SecurityContext security = ctx.session().securityContext();
        if (security != null) {
            return security.established() || "ADAT".equals(verb) ? null : MUST_AUTHENTICATE;
        }
        return ctx.config().clearTextLoginsAllowed() || "AUTH".equals(verb) ? null : MUST_AUTHENTICATE;
    }
}
