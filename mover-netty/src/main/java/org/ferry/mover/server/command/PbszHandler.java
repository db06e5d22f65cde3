package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * PBSZ n (RFC 2228 section 3; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)): {@code 200 PBSZ=n}; a value that is not
 * a number below 2^32 gets {@code 501 Bad value for PBSZ: n}. The size is recorded only: TLS
 * records on protected data channels are self-delimiting and at most 16 KiB (RFC 8446 section 5.1).
 */
public final class PbszHandler implements StateCommandHandler {

    private static final long LIMIT = 1L << 32;

    @Override
    public String verb() {
        return "PBSZ";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String text = argument.strip();
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value >= LIMIT) {
            throw new FtpException(501, "Bad value for PBSZ: " + text);
        }
        ctx.session().dataProtection().bufferSizeBytes(value);
        ctx.reply(200, "PBSZ=" + value);
    }
}
