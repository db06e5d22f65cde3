package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/**
 * SCKS algorithm checksum (globus-gridftp-server, GFD.047 "CKSM"): the expected
 * checksum of the file the next STOR uploads; after the upload the server computes it and answers
 * {@code 550} with {@code GridFTP-Computed-Checksum:} and {@code GridFTP-Expected-Checksum:} lines
 * instead of 226 on a mismatch. Applies to the next STOR only. {@code 200 OK.}; unknown algorithm
 * {@code 504}; missing value {@code 501}.
 */
public final class ScksHandler implements CommandHandler {

    @Override
    public String verb() {
        return "SCKS";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String[] parts = argument.strip().split("\\s+");
        if (parts.length != 2 || parts[1].isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String algorithm = Checksums.canonical(parts[0]);
        if (algorithm == null) {
            throw new FtpException(504, "Unknown checksum algorithm requested.");
        }
        ctx.session().expectedChecksum(algorithm, parts[1].toLowerCase(java.util.Locale.ROOT));
        ctx.reply(200, "OK.");
    }
}
