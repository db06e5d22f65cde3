package org.ferry.mover.server.pi;

import java.io.IOException;
import java.util.List;

/**
 * Executes one command verb (or a compound verb such as {@code SITE HELP} or {@code OPTS RETR}).
 * Handlers are stateless and shared by all sessions; session state lives in
 * {@link org.ferry.mover.server.pi.ControlSession}. {@link #handle} runs on the session's command
 * worker thread, never on the event loop, so it may block on the file system or on a transfer.
 * A handler that can {@linkplain #runsOnEventLoop run on the event loop} (RETR and STOR, the
 * per-file commands of a pipelined batch) is started there through {@link #start} instead, which
 * must not block beyond a few metadata system calls (the open of a file, as the data path's reads
 * and writes on the same event loops do).
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

    /**
     * @return true for the commands that send a file over the data channels (RETR, ERET): when one
     *     is refused before its transfer starts in MODE E towards a PORT address, its cached
     *     connections were not used and stay (default false)
     */
    default boolean sendsFile() {
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
     *     is mapped by {@link org.ferry.mover.server.dtp.ErrorReplies}; others give 451)
     */
    void handle(CommandContext ctx, String argument) throws FtpException, IOException;

    /**
     * Whether {@link #start} may run on the control channel's event loop for this session now: it
     * then neither blocks on a transfer nor does more than a few quick file system calls. Running
     * there spares the thread hand-offs that cost a small file more than its bytes (globus-gridftp-server
     * runs a session's commands and its data in one thread). Default false.
     *
     * @param session the session the command is for
     * @return true if {@link #start} does not block
     */
    default boolean runsOnEventLoop(ControlSession session) {
        return false;
    }

    /**
     * Starts the command. The default runs {@link #handle} to its end and returns null; a handler
     * that {@linkplain #runsOnEventLoop runs on the event loop} returns its running transfer instead.
     *
     * @param ctx the session's context
     * @param argument the text after the verb
     * @return null when the command is done (its replies sent), or a stage that completes when its
     *     last reply is sent, or exceptionally with the failure to reply ({@link FtpException},
     *     {@link IOException}); the session runs no next command before it completes
     * @throws FtpException to send a specific failure reply
     * @throws IOException on a storage failure
     */
    default java.util.concurrent.CompletionStage<?> start(CommandContext ctx, String argument)
            throws FtpException, IOException {
        handle(ctx, argument);
        return null;
    }
}
