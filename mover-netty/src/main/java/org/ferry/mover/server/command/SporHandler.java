package org.ferry.mover.server.command;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;

/**
 * SPOR h1,h2,h3,h4,p1,p2 [h1,...] (GFD.020 "Striped Port"; RFC 959 section 4.1.2, RFC 2428, GFD.020 "SPAS"/"SPOR"):
 * the receiver addresses of a striped send, space separated, PORT-style or EPRT-style
 * ({@code |1|ip|port|}). The next RETR sends striped, each address receiving its own stripes and
 * exactly one EOF ({@link org.ferry.mover.server.dtp.StripedDtp}). SPOR goes with sending commands
 * in MODE E. {@code 200 PORT Command successful.}; {@code 501} when malformed; {@code 504} when an
 * address has a port below 1024 (RFC 2577 section 3, as PORT).
 */
public final class SporHandler implements CommandHandler {

    /** Upper bound on SPOR addresses. */
    public static final int MAX_ADDRESSES = 64;

    @Override
    public String verb() {
        return "SPOR";
    }

    @Override
    public List<String> features() {
        return List.of("SPOR");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        String[] words = argument.strip().split("\\s+");
        if (argument.isBlank() || words.length > MAX_ADDRESSES) {
            throw new FtpException(501, "Illegal PORT command.");
        }
        List<InetSocketAddress> targets = new ArrayList<>();
        for (String word : words) {
            targets.add(DataPorts.unprivileged(
                    word.startsWith("|") ? DataPorts.parseEprt(word) : DataPorts.parsePort(word)));
        }
        ctx.session().dataEndpoint(new DataEndpoint.Active(targets.get(0)));
        ctx.session().stripedTargets(targets);
        ctx.reply(200, "PORT Command successful.");
    }
}
