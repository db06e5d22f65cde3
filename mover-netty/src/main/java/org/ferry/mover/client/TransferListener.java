package org.ferry.mover.client;

/**
 * Progress callbacks of one file transfer (or of a batch: progress and markers then concern the
 * file in flight). Called from I/O threads: implementations must be
 * thread-safe and quick.
 */
public interface TransferListener {

    /** A listener that ignores everything. */
    TransferListener NONE = new TransferListener() {};

    /**
     * Bytes moved so far for the current file, from the receiving side's performance markers (112)
     * or the client's own counting.
     *
     * @param bytesTransferred cumulative bytes of this file
     */
    default void onProgress(long bytesTransferred) {}

    /**
     * A restart marker (111) from the receiving server.
     *
     * @param ranges the marker text, e.g. {@code 0-1048576,2097152-3145728} (end exclusive)
     */
    default void onRestartMarker(String ranges) {}

    /**
     * The receiving server of a third-party transfer accepted its transfer command (its 125 or 150
     * preliminary reply, RFC 959 section 4.2): it has opened the destination file, whose content
     * is from now on this transfer's (a STOR replaces what was there, RFC 959 section 4.1.3; a
     * restarted one keeps the prefix it was told of). In stream mode, which has no restart markers,
     * the destination's size after a failure is then the prefix a retry may resume from.
     */
    default void onReceiveStarted() {}

    /**
     * One file of a batch ({@code sendAll}, {@code uploadAll}, {@code downloadAll}) finished: both
     * sides gave their final positive reply. Called in the batch's order.
     *
     * @param file the file
     * @param bytesTransferred its size in bytes as transferred
     */
    default void onFileCompleted(FilePair file, long bytesTransferred) {}

    /**
     * A third-party batch ({@code sendAll}) failed, and the receiving server had taken up this file
     * without finishing it: it answered the file's transfer command with 125/150 (a STOR creates or
     * truncates the file, RFC 959 section 4.1.3), or was running it when its replies could no
     * longer be told apart (after ABOR, or a control connection given up). The destination file is
     * then no longer what stood there before, and may be cut short. Files whose transfer command
     * the receiving server refused before opening them, or never took up, are not reported: their
     * destination is as it was. Called before the batch's exception is thrown.
     *
     * @param file the file
     * @param writtenInOrder true when its bytes are written in order (stream mode, a tar stream),
     *     so a copy cut short is shorter than the file; false in MODE E, whose blocks land in any
     *     order: a copy cut short may have its full size
     */
    default void onFileUnfinished(FilePair file, boolean writtenInOrder) {}
}
