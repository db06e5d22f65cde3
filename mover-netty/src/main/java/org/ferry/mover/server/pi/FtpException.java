package org.ferry.mover.server.pi;

import java.util.Objects;
import org.ferry.mover.protocol.FtpReply;

/** A command failure that carries the reply to send; the session continues. */
public final class FtpException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient FtpReply reply;

    /**
     * @param code reply code (4xx or 5xx)
     * @param text reply text
     */
    public FtpException(int code, String text) {
        super(code + " " + text);
        this.reply = FtpReply.of(code, text);
    }

    /** @param reply the reply to send */
    public FtpException(FtpReply reply) {
        super(Objects.requireNonNull(reply, "reply").toString());
        this.reply = reply;
    }

    /** @return the reply to send */
    public FtpReply reply() {
        return reply;
    }
}
