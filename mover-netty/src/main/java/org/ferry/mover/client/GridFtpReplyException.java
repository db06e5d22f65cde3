package org.ferry.mover.client;

import java.io.IOException;

/**
 * A GridFTP server answered a command with a failure reply (4xx transient, 5xx permanent,
 * RFC 959 section 4.2).
 */
public class GridFtpReplyException extends IOException {

    private final int replyCode;
    private final String command;

    /**
     * @param command the command that failed, without secrets (PASS arguments must be masked)
     * @param replyCode the three-digit reply code
     * @param replyText the reply text, all lines joined by newlines
     */
    public GridFtpReplyException(String command, int replyCode, String replyText) {
        super(command + ": " + replyCode + " " + replyText);
        this.command = command;
        this.replyCode = replyCode;
    }

    /** @return the three-digit reply code */
    public int replyCode() {
        return replyCode;
    }

    /** @return the failed command (secrets masked) */
    public String command() {
        return command;
    }

    /** @return true for 4xx (transient negative completion, worth retrying) */
    public boolean isTransient() {
        return replyCode >= 400 && replyCode < 500;
    }
}
