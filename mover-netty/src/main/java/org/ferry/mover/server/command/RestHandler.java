package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * REST n | a-b,c-d (RFC 3659 section 5 stream restart; GFD.020 MODE E ranges, end exclusive,
 * GFD.020 "Restarting"). Applies to the next RETR/STOR only.
 * {@code 350 Restart Marker OK. Send STORE or RETR to initiate transfer.}; {@code 501 bad parameter.}
 */
public final class RestHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "REST";
    }

    @Override
    public List<String> features() {
        return List.of("REST STREAM");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String arg = argument.strip();
        if (arg.matches("\\d{1,18}")) {
            ctx.session().restart(Long.parseLong(arg), null);
        } else if (arg.matches("\\d{1,18}-\\d{1,18}(,\\d{1,18}-\\d{1,18})*")) {
            try {
                ByteRange.parseList(arg);
            } catch (IllegalArgumentException e) {
                throw new FtpException(501, "bad parameter.");
            }
            ctx.session().restart(0, arg);
        } else {
            throw new FtpException(501, "bad parameter.");
        }
        ctx.reply(350, "Restart Marker OK. Send STORE or RETR to initiate transfer.");
    }
}
