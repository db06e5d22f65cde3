package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.DataProtectionState;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * DCAU N|A|S subject (GFD.020 GSI appendix; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)): {@code 200 DCAU A.}.
 * A and S need the credential delegated at login (reference 4.5), else 504. A change drops the
 * cached data connections, whose authentication no longer matches. Contributes {@code DCAU} to
 * FEAT: DCAU A is implemented and the default after a GSI login.
 */
public final class DcauHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "DCAU";
    }

    @Override
    public List<String> features() {
        return List.of("DCAU");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        DataChannelAuthentication wanted;
        try {
            wanted = DataChannelAuthentication.parse(argument);
        } catch (IllegalArgumentException e) {
            throw new FtpException(e.getMessage().startsWith("DCAU S") ? 501 : 504, e.getMessage());
        }
        DataProtectionState state = ctx.session().dataProtection();
        if (wanted.authenticates() && !DataProtectionCommands.hasDelegatedCredential(ctx)) {
            throw new FtpException(
                    504,
                    "DCAU " + wanted.letter() + " needs a delegated credential: delegate at login, or send DCAU N.");
        }
        if (!wanted.equals(state.dcau(ctx.session()))) {
            state.dcau(wanted);
            DataProtectionCommands.dropCachedConnections(ctx);
        }
        ctx.reply(200, "DCAU " + wanted.letter() + ".");
    }
}
