package org.ferry.mover.stripe;

/**
 * The messages of Ferry's internal link between a head node's PI and a data node's DTP (SC'05
 * paper, Figure 1: "server-internal communication. Protocol is unspecified and left up to the
 * implementation"). Requests carry an id chosen by the head; every reply names the request it
 * answers. Encoded by {@link LinkCodec} inside 4-byte length-prefixed frames.
 *
 * <p>Order on a new connection: data node sends {@link Challenge}, head answers {@link Auth},
 * data node answers {@link Ready} (or closes the connection). Then the head sends requests
 * ({@link Listen}, {@link CloseListener}, {@link Receive}, {@link Send}, {@link Abort}), and the
 * data node answers with {@link Listening}, {@link Progress}, {@link Done} and {@link Failed}.
 */
public sealed interface LinkMessage {

    /**
     * Data node to head, first message: a random nonce to prove the shared secret over.
     *
     * @param nonce 32 random bytes
     */
    record Challenge(byte[] nonce) implements LinkMessage {}

    /**
     * Head to data node: HMAC-SHA256 of the nonce under the shared secret ({@link LinkAuth}).
     *
     * @param mac 32 bytes
     */
    record Auth(byte[] mac) implements LinkMessage {}

    /** Data node to head: authentication succeeded, requests may follow. */
    record Ready() implements LinkMessage {}

    /**
     * Opens a passive data listener on the data node (one stripe of SPAS).
     *
     * @param id request id, also the id of the listener for {@link Receive} and {@link CloseListener}
     */
    record Listen(long id) implements LinkMessage {}

    /**
     * The listener of {@link Listen} is bound.
     *
     * @param id the request id
     * @param host the address to announce in the SPAS reply
     * @param port its port
     */
    record Listening(long id, String host, int port) implements LinkMessage {}

    /**
     * Closes a listener (a new SPAS/PASV replaced it, or the session ended).
     *
     * @param id the {@link Listen} request id
     */
    record CloseListener(long id) implements LinkMessage {}

    /**
     * Receives one stripe in MODE E on an open listener into a file, every block written at its
     * offset; the head has created or truncated the file.
     *
     * @param id request id
     * @param listenerId the {@link Listen} id whose listener the sender connects to
     * @param path virtual path under the data node's root
     * @param baseOffset added to every block offset before writing (APPE appends at the old size)
     */
    record Receive(long id, long listenerId, String path, long baseOffset) implements LinkMessage {}

    /**
     * Sends one stripe of a file in MODE E: the blocks {@code i} of the range
     * {@code [offset, offset + length)} with {@code i mod stripeCount == stripeIndex}.
     *
     * @param id request id
     * @param path virtual path under the data node's root
     * @param offset first file byte of the range (REST)
     * @param length bytes in the range
     * @param blockSizeBytes block size of the layout
     * @param stripeIndex this stripe
     * @param stripeCount stripes in the layout
     * @param host the receiver's address (one SPOR entry)
     * @param port its port
     * @param parallelism MODE E connections for this stripe
     * @param eofCount EOD count to announce in this stripe's EOF header; 0 = send no EOF, only EODs
     *     (another stripe sending to the same receiver announces the combined count)
     */
    record Send(
            long id,
            String path,
            long offset,
            long length,
            int blockSizeBytes,
            int stripeIndex,
            int stripeCount,
            String host,
            int port,
            int parallelism,
            long eofCount)
            implements LinkMessage {}

    /**
     * Aborts a running {@link Send} or {@link Receive} (ABOR on the control channel).
     *
     * @param id the request id
     */
    record Abort(long id) implements LinkMessage {}

    /**
     * Progress of a transfer, for 112 perf and 111 range markers.
     *
     * @param id the request id
     * @param bytes cumulative bytes moved by this stripe
     * @param ranges byte ranges received since the last report, {@code a-b,c-d} end exclusive, or
     *     empty
     */
    record Progress(long id, long bytes, String ranges) implements LinkMessage {}

    /**
     * A transfer ended well.
     *
     * @param id the request id
     * @param bytes bytes moved by this stripe
     */
    record Done(long id, long bytes) implements LinkMessage {}

    /**
     * A request failed.
     *
     * @param id the request id
     * @param replyCode the FTP reply code the head should answer with (425, 426, 451, 55x)
     * @param message human-readable reason
     */
    record Failed(long id, int replyCode, String message) implements LinkMessage {}
}
