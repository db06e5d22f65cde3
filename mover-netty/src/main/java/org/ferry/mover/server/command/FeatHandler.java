package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * FEAT (RFC 2389 section 3): {@code 211-Extensions supported}, one {@code " feature"} line per
 * feature contributed by the registered handlers, {@code 211 End.} Only implemented features are
 * listed: FEAT steers globus clients (no DCAU, GETPUT, ERET/ESTO, SPAS/SPOR here;
 * RFC 2389 section 3).
 */
public final class FeatHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "FEAT";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return true;
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        List<String> lines =
                ctx.registry().features().stream().map(f -> " " + f).toList();
        ctx.reply(FtpReply.multiline(211, "Extensions supported", lines, "End."));
    }
}
