package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * SBUF bytes (GFD.020 "Buffer size negotiation"): sets SO_SNDBUF and SO_RCVBUF of later data
 * connections and listeners (a PASV after it; cached MODE E connections keep theirs). {@code 200 SBUF Command Successful.}; {@code 501 Invalid Parameter.}
 */
public final class SbufHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "SBUF";
    }

    @Override
    public List<String> features() {
        return List.of("SBUF");
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
