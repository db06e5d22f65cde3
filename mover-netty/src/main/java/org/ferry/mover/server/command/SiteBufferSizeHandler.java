package org.ferry.mover.server.command;

import java.util.Locale;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * The SITE buffer commands of globus-gridftp-server (GFD.020 "Buffer Size Negotiation"), which
 * globus-url-copy {@code -tcp-bs} tries in turn: {@code SITE RETRBUFSIZE|RBUFSZ|RBUFSIZ n} set the
 * receive buffer (SO_RCVBUF), {@code SITE STORBUFSIZE|SBUFSZ|SBUFSIZ n} the send buffer (SO_SNDBUF),
 * {@code SITE SBUF n} both, of later data connections. One instance per verb.
 * {@code 200 Site Command Successful.}; {@code 501 Invalid Parameter.}
 */
public final class SiteBufferSizeHandler implements StateCommandHandler {

    /** Which socket buffer a verb sets. */
    enum Buffer {
        RECEIVE,
        SEND,
        BOTH
    }

    private final String verb;
    private final Buffer buffer;

    /**
     * @param subVerb the word after SITE, e.g. {@code RETRBUFSIZE}
     * @param buffer which buffer it sets
     */
    SiteBufferSizeHandler(String subVerb, Buffer buffer) {
        this.verb = "SITE " + subVerb.toUpperCase(Locale.ROOT);
        this.buffer = buffer;
    }

    @Override
    public String verb() {
        return verb;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        int size;
        try {
            size = Integer.parseInt(argument.strip());
        } catch (NumberFormatException e) {
            throw new FtpException(501, "Invalid Parameter.");
        }
        if (size < 0) {
            throw new FtpException(501, "Invalid Parameter.");
        }
        switch (buffer) {
            case RECEIVE -> ctx.session().receiveBufferBytes(size);
            case SEND -> ctx.session().sendBufferBytes(size);
            case BOTH -> ctx.session().bufferSizeBytes(size);
        }
        ctx.reply(200, "Site Command Successful.");
    }
}
