package org.ferry.mover.runner;

import java.util.List;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.ByteRange;

/**
 * What a {@link ChunkRunner} reports while it moves a chunk, and how it learns that the chunk must
 * stop. Called from the chunk's lane threads, several at once: implementations are thread-safe.
 *
 * <p>Every file of the chunk ends in one of three ways: {@link #onFileArrived}; a last
 * {@link #onFault} with {@code willRetry == false} (out of this runner's attempts, or a permanent
 * fault); or nothing, when the chunk stopped before the file was tried (the task stopped, or an
 * earlier file gave up on a transient fault: the endpoint is probably down, and the service will
 * offer those files again later).
 */
public interface ChunkListener {

    /** @return true once the chunk must stop (task cancelled, expired, failed; chunk taken away) */
    boolean isStopped();

    /**
     * A lane opened a session. Closing it from another thread aborts its transfer in flight,
     * which is how a stop reaches the data flow at once.
     *
     * @param session the logged-in session
     */
    void sessionOpened(GridFtpSession session);

    /** @param session a session the lane closed; forget it */
    void sessionClosed(GridFtpSession session);

    /**
     * A server refused a lane's login as busy (421, its session limit: {@link
     * Faults#refusedAsBusy}) where no file's attempt reports it: the lane's first login, or the
     * login of a pipelined batch, whose files then go one by one. The chunk goes on (the login is
     * tried again); no file fails for it. The service counts it against the endpoint pair, so that
     * the optimizer sees the server's session limit (docs/optimizer.md). A refusal in a file's own
     * attempt is that file's {@link #onFault} instead, not reported here as well.
     *
     * @param fault the refusal ({@link FaultCode#ENDPOINT_ERROR}, with the server's reply)
     */
    default void onSessionRefused(MoverFault fault) {}

    /** @param delta bytes moved since the last call; negative takes back a failed attempt's bytes */
    void onBytes(long delta);

    /**
     * The destination acknowledged more of a file (its 111 restart markers): a later attempt
     * resumes from these ranges.
     *
     * @param file the file
     * @param acknowledged every range written so far, merged, end exclusive
     */
    default void onRestartMarker(FileTransfer file, List<ByteRange> acknowledged) {}

    /**
     * A multicast file's bytes at each destination (Ferry's multicast extension): what each one
     * holds of it now, while it is moved and retried. A destination that holds the whole file,
     * checked, is {@code holding}; a file's entry ends with its {@link #onFileArrived} or its last
     * {@link #onFault}.
     *
     * @param file the file
     * @param bytes per destination, the first destination first, then the further ones in order
     * @param holding per destination: it holds the whole file, checked against the first one
     */
    default void onDestinationProgress(FileTransfer file, long[] bytes, boolean[] holding) {}

    /**
     * A new attempt at a file skips what the destination already holds.
     *
     * @param file the file
     * @param skipped the ranges the attempt does not send again
     */
    default void onResume(FileTransfer file, List<ByteRange> skipped) {}

    /**
     * A file arrived: the destination answered 226 and reports the source's size (a file moved on
     * its own: MLST; a batch: pipelined SIZE after it), or its checksum matched the source's when
     * asked.
     *
     * @param file the file
     * @param bytes its size
     * @param checksum the checksum both ends reported ({@code ALGORITHM:hex}, e.g. {@code MD5:...}) when the chunk verifies
     *     checksums, else null
     */
    void onFileArrived(FileTransfer file, long bytes, String checksum);

    /**
     * An attempt at a file failed.
     *
     * @param file the file
     * @param fault what went wrong
     * @param attempt the attempt's number, counting earlier chunks' attempts
     *     ({@link FileTransfer#attemptsBefore} + 1 for the first attempt here)
     * @param willRetry true if this runner tries the file again; false if it gave up on it
     * @param acknowledged the ranges the destination holds now (what a later attempt resumes from;
     *     empty when the file must be sent again whole)
     */
    void onFault(FileTransfer file, MoverFault fault, int attempt, boolean willRetry, List<ByteRange> acknowledged);
}
