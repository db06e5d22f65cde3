package org.ferry.mover.server.command;

import java.time.Duration;
import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/**
 * TREV RESTART n | TREV PERF n (globus-gridftp-server's transfer event command,
 * GFD.020 "Restarting"; GFD.020 "Performance Monitoring"): sets the period in seconds of the 111 restart markers
 * or the 112 performance markers this server sends while receiving in MODE E; 0 turns them off.
 * {@code RESTART=n} is accepted too. {@code 200 TREV Command Successful.}; {@code 501 bad parameter.}
 */
public final class TrevHandler implements CommandHandler {

    /** Largest accepted period, one day. */
    static final int MAX_SECONDS = 86_400;

    @Override
    public String verb() {
        return "TREV";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String[] parts = argument.strip().replace('=', ' ').split("\\s+");
        if (parts.length != 2) {
            throw new FtpException(501, "bad parameter.");
        }
        int seconds;
        try {
            seconds = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new FtpException(501, "bad parameter.");
        }
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new FtpException(501, "bad parameter.");
        }
        Duration period = Duration.ofSeconds(seconds);
        switch (parts[0].toUpperCase(Locale.ROOT)) {
            case "RESTART" -> ctx.session().restartMarkerInterval(period);
            case "PERF" -> ctx.session().perfMarkerInterval(period);
            default -> throw new FtpException(501, "bad parameter.");
        }
        ctx.reply(200, "TREV Command Successful.");
    }
}
