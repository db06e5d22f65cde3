package org.ferry.mover.server.command;

import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;
import org.ferry.mover.server.pi.TransferMode;

/** MODE S|E (RFC 959 section 4.1.2; GFD.020 "Extended Block Mode"): {@code 200 Mode set to E.} */
public final class ModeHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "MODE";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String mode = argument.strip().toUpperCase(Locale.ROOT);
        TransferMode next = switch (mode) {
            case "S" -> TransferMode.STREAM;
            case "E" -> TransferMode.EXTENDED_BLOCK;
            default -> throw new FtpException(501, "'MODE " + argument + "' unrecognized transfer mode.");
        };
        if (next != ctx.session().mode()) {
            ctx.session().dataEndpoint(null); // cached MODE E connections do not survive a mode change
        }
        ctx.session().mode(next);
        ctx.reply(200, "Mode set to " + mode + ".");
    }
}
