package org.ferry.mover.server.command;

import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * TYPE A|I (RFC 959 section 4.1.2; globus accepts only A and I, RFC 959 section 4.1, GFD.020;
 * {@code A N} and {@code L 8} are accepted as A and I). Data is never converted: ASCII transfers
 * move the bytes as stored.
 */
public final class TypeHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "TYPE";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String type = argument.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        switch (type) {
            case "A", "A N" -> {
                ctx.session().binaryType(false);
                ctx.reply(200, "Type set to A.");
            }
            case "I", "L 8" -> {
                ctx.session().binaryType(true);
                ctx.reply(200, "Type set to I.");
            }
            default -> throw new FtpException(501, "'TYPE " + argument + "' unrecognized type.");
        }
    }
}
