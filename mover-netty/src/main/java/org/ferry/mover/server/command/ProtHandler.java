package org.ferry.mover.server.command;

import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.DataProtectionState;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * PROT C|S|P (RFC 2228 section 3; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)): {@code 200 Protection level set to P.};
 * E and anything else {@code 536 X protection level not supported.}. Applies to data channels only
 * when DCAU is not N. A change drops the cached data connections.
 */
public final class ProtHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "PROT";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String letter = argument.strip();
        ProtectionLevel level = ProtectionLevel.parse(letter)
                .orElseThrow(() -> new FtpException(536, letter + " protection level not supported."));
        DataProtectionState state = ctx.session().dataProtection();
        if (level != state.protection()) {
            state.protection(level);
            DataProtectionCommands.dropCachedConnections(ctx);
        }
        ctx.reply(200, "Protection level set to " + level.code() + ".");
    }
}
