package org.ferry.mover.server.command;

import java.util.List;
import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * OPTS RETR opt=value;... (GFD.020 "Options to RETR"; globus syntax in GFD.020 "Options to RETR"): every option must end with {@code ;}. {@code Parallelism=start,min,max;} sets the
 * number of MODE E connections for sending (the first number, clamped to 1..64);
 * {@code markers=N;} asks for 112 perf markers every N seconds while sending (0 = none);
 * {@code BlockSize=n;} sets the block size of striped sends (SPOR, {@code StripeLayout=Blocked},
 * 1 byte .. 64 MiB); {@code StripeLayout}, {@code PacketSize} and {@code WindowSize} are accepted
 * and ignored (striped sends are always {@code Blocked}). Anything else: {@code 500 OPTS failed.}
 */
public final class OptsRetrHandler implements StateCommandHandler {

    /** Upper bound on parallel data connections per transfer. */
    public static final int MAX_PARALLELISM = 64;

    @Override
    public String verb() {
        return "OPTS RETR";
    }

    @Override
    public List<String> features() {
        return List.of("PARALLEL");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String text = argument.strip();
        if (text.isEmpty() || !text.endsWith(";")) {
            throw new FtpException(500, "OPTS failed.");
        }
        Integer parallelism = null;
        Integer markers = null;
        Integer blockSize = null;
        for (String option : text.substring(0, text.length() - 1).split(";", -1)) {
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw new FtpException(500, "OPTS failed.");
            }
            String name = option.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = option.substring(eq + 1).strip();
            switch (name) {
                case "parallelism" -> parallelism = parseParallelism(value);
                case "markers" -> markers = parseMarkers(value);
                case "blocksize" -> blockSize = parseBlockSize(value);
                case "stripelayout", "packetsize", "windowsize" -> {}
                default -> throw new FtpException(500, "OPTS failed.");
            }
        }
        if (parallelism != null) {
            ctx.session().parallelism(parallelism);
        }
        if (markers != null) {
            ctx.session().sendMarkerSeconds(markers);
        }
        if (blockSize != null) {
            ctx.session().stripeBlockSizeBytes(blockSize);
        }
        ctx.reply(200, "OPTS Command Successful.");
    }

    private static int parseBlockSize(String value) throws FtpException {
        try {
            int bytes = Integer.parseInt(value.strip());
            if (bytes < 1 || bytes > (64 << 20)) {
                throw new FtpException(500, "OPTS failed.");
            }
            return bytes;
        } catch (NumberFormatException e) {
            throw new FtpException(500, "OPTS failed.");
        }
    }

    private static int parseMarkers(String value) throws FtpException {
        try {
            int seconds = Integer.parseInt(value.strip());
            if (seconds < 0) {
                throw new FtpException(500, "OPTS failed.");
            }
            return seconds;
        } catch (NumberFormatException e) {
            throw new FtpException(500, "OPTS failed.");
        }
    }

    private static int parseParallelism(String value) throws FtpException {
        try {
            int start = Integer.parseInt(value.split(",", -1)[0].strip());
            if (start < 1) {
                throw new FtpException(500, "OPTS failed.");
            }
            return Math.min(start, MAX_PARALLELISM);
        } catch (NumberFormatException e) {
            throw new FtpException(500, "OPTS failed.");
        }
    }
}
