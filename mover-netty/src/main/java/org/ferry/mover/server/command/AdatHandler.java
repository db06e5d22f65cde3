package org.ferry.mover.server.command;

import java.util.Base64;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.GsiAuthenticationGate;
import org.ferry.mover.server.pi.GsiProtectionHandler;

/**
 * ADAT base64-token (RFC 2228 section 3; RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism step 2): feeds the token to the
 * session's security context; {@code 335 ADAT=<token>} while more is needed, {@code 235} when
 * done (with {@code ADAT=} if a last token must go back), {@code 530} on failure (the context
 * is dropped; the client may start over with AUTH), {@code 530 Must perform GSSAPI
 * authentication.} without a token (the exchange stays where it was, as in globus). When done, the protection handler goes into
 * the pipeline right after the clear 235 is written, so every later reply is wrapped.
 */
public final class AdatHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ADAT";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        SecurityContext security = ctx.session().securityContext();
        if (security == null) {
            throw new FtpException(503, "Must perform AUTH before ADAT.");
        }
        if (security.established()) {
            throw new FtpException(503, "Security data exchange completed.");
        }
        if (argument.isBlank()) {
            // globus keeps the exchange where it was (RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism step 2)
            throw new FtpException(GsiAuthenticationGate.MUST_AUTHENTICATE);
        }
        byte[] reply;
        try {
            reply = security.step(Base64.getDecoder().decode(argument.strip()));
        } catch (GsiContextException | IllegalArgumentException e) {
            ctx.session().securityContext(null);
            throw new FtpException(530, e.getMessage());
        }
        String token =
                reply == null || reply.length == 0 ? null : Base64.getEncoder().encodeToString(reply);
        if (!security.established()) {
            ctx.reply(335, "ADAT=" + (token == null ? "" : token));
            return;
        }
        FtpReply done = FtpReply.of(235, token == null ? "GSSAPI Authentication successful." : "ADAT=" + token);
        var channel = ctx.channel();
        // On the event loop: the clear 235 passes the pipeline before the wrapping handler exists.
        channel.eventLoop().execute(() -> {
            channel.writeAndFlush(done);
            channel.pipeline().addBefore("session", "gsi", new GsiProtectionHandler(security));
        });
    }
}
