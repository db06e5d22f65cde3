package org.ferry.mover.server.command;

import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;

/**
 * SBUF bytes (GFD.020 "Buffer size negotiation"): remembers the TCP buffer size for later data
 * connections. {@code 200 SBUF Command Successful.}; {@code 501 Invalid Parameter.}
 */
public final class SbufHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SBUF";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        try {
            int size = Integer.parseInt(argument.strip());
            if (size < 0) {
                throw new NumberFormatException();
            }
            ctx.session().bufferSizeBytes(size);
        } catch (NumberFormatException e) {
            throw new FtpException(501, "Invalid Parameter.");
        }
        ctx.reply(200, "SBUF Command Successful.");
    }
}
