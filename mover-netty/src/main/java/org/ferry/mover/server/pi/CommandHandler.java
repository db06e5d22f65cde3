package org.ferry.mover.server.pi;

import java.io.IOException;
import java.util.List;

/**
 * Executes one command verb (or a compound verb such as {@code SITE HELP} or {@code OPTS RETR}).
 * Handlers are stateless and shared by all sessions; session state lives in
 * {@link org.ferry.mover.server.pi.ControlSession}. {@link #handle} runs on the session's command
 * worker thread, never on the event loop, so it may block on the file system or on a transfer.
 */
public interface CommandHandler {

    /** @return the verb in upper case, e.g. {@code RETR}, or {@code SITE HELP} for a compound verb */
    String verb();

    /** @return true if the command is accepted before login (RFC 959 section 4.1.1; default false) */
    default boolean allowedBeforeLogin() {
        return false;
    }

    /**
     * @return true for commands that move data over the data channels (RETR, STOR, APPE, ERET,
     *     ESTO, listings): when one fails, the session drops its data endpoint and cached MODE E
     *     connections, so that data a pipelining peer already sent for it cannot be taken for the
     *     next file's (default false)
     */
    default boolean movesData() {
        return false;
    }

    /** @return lines this command contributes to FEAT (RFC 2389), without the leading space */
    default List<String> features() {
        return List.of();
    }

    /**
     * Executes the command and sends its reply (or replies) through the context.
     *
     * @param ctx the session's context
     * @param argument the text after the verb (after the sub-verb for compound verbs); may be empty
     * @throws FtpException to send a specific failure reply
     * @throws IOException on a storage failure ({@link org.ferry.mover.storage.StorageException}
     *     is mapped by {@link org.ferry.mover.server.pi.ErrorReplies}; others give 451)
     */
    void handle(CommandContext ctx, String argument) throws FtpException, IOException;
}
