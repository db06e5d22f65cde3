package org.ferry.mover.runner;

import java.util.List;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.ByteRange;

/**
 * What a {@link ChunkRunner} reports while it moves a chunk, and how it learns that the chunk's
 * task has stopped. Called from the chunk's lane threads, several at once: implementations are
 * thread-safe.
 */
public interface ChunkListener {

    /** @return true once the task stopped (cancelled, expired, failed): lanes start no more work */
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
     * A new attempt at a file skips what the destination already holds.
     *
     * @param file the file
     * @param skipped the ranges the attempt does not send again
     */
    default void onResume(FileTransfer file, List<ByteRange> skipped) {}

    /**
     * @param file a file that arrived (and whose checksum matched, when asked)
     * @param bytes its size
     */
    void onFileArrived(FileTransfer file, long bytes);

    /**
     * An attempt failed; the runner retries it while attempts are left.
     *
     * @param fault what went wrong
     */
    void onFault(MoverFault fault);

    /**
     * A file ran out of attempts: the chunk's lanes start no more files, and the runner returns
     * this fault. Called once per chunk, before lanes still moving a file have finished, so that
     * the task can be ended (and their transfers aborted) at once.
     *
     * @param fault the file's last fault
     */
    void onFileFailed(MoverFault fault);
}
