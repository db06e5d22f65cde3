package org.ferry.mover.server.dtp;

import java.util.function.LongConsumer;

/**
 * What a DTP tells its PI while a transfer (or one stripe of one) runs: the bytes moved so far, for
 * 112 perf markers (GFD.020 "Performance Monitoring"; per stripe when striped), and while receiving
 * the byte ranges now written, for 111 range markers (GFD.020 "Restarting"). Called from I/O or link
 * threads, possibly several at once: implementations must be thread-safe.
 */
@FunctionalInterface
public interface TransferProgress extends LongConsumer {

    /**
     * @param bytes cumulative bytes of this transfer or stripe; reports from several connections
     *     may overtake each other, so a smaller figure after a larger one is stale
     */
    @Override
    void accept(long bytes);

    /**
     * A range of the transfer is written at the receiver. The default ignores it.
     *
     * @param from first byte, relative to the transfer's byte 0
     * @param to end, exclusive
     */
    default void received(long from, long to) {}
}
