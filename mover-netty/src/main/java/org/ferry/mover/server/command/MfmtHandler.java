package org.ferry.mover.server.command;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.StorageException;

/**
 * MFMT YYYYMMDDHHMMSS path (draft-somers-ftp-mfxx; globus maps it to SITE UTIME): sets the
 * modification time, UTC. Answers {@code 250 OK.} as globus-gridftp-server does, not the draft's
 * {@code 213 Modify=...} (RFC 959 section 4.1, GFD.020). {@code 501} on a bad time.
 */
public final class MfmtHandler implements CommandHandler {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuuMMddHHmmss");

    @Override
    public String verb() {
        return "MFMT";
    }

    @Override
    public java.util.List<String> features() {
        return java.util.List.of("MFMT");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, StorageException {
        setTime(ctx, argument);
        ctx.reply(250, "OK.");
    }

    /** Parses {@code <time> <path>} and sets the time. */
    static void setTime(CommandContext ctx, String argument) throws FtpException, StorageException {
        String[] parts = argument.strip().split(" ", 2);
        if (parts.length < 2 || parts[1].isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String time = parts[0].length() > 14 ? parts[0].substring(0, 14) : parts[0]; // drop .sss fractions
        try {
            ctx.storage()
                    .setModified(
                            ctx.resolve(parts[1]),
                            LocalDateTime.parse(time, TIME).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            throw new FtpException(501, "Invalid time: " + parts[0]);
        }
    }
}
