package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The shared state of one data transfer over one or more connections: the byte counter, the
 * result, and the connections to close when it ends. Thread-safe: connections of one transfer may
 * run on different event loops. Ends once; the first outcome wins.
 */
final class DataTransfer {

    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicLong bytes = new AtomicLong();
    private final LongConsumer progress;

    /** @param progress called with cumulative bytes after every increment; may be null */
    DataTransfer(LongConsumer progress) {
        this.progress = progress;
    }

    /** @return completes with the byte count, or exceptionally with an IOException */
    CompletableFuture<Long> result() {
        return result;
    }

    /** Records a connection of this transfer; it is closed when the transfer ends (no caching yet). */
    void register(Channel channel) {
        channels.add(channel);
        if (result.isDone()) {
            channel.close();
        }
    }

    /** Adds {@code n} moved bytes and reports the new total. */
    void addBytes(long n) {
        long total = bytes.addAndGet(n);
        if (progress != null) {
            progress.accept(total);
        }
    }

    /** @return true once the transfer succeeded or failed */
    boolean isDone() {
        return result.isDone();
    }

    /** Ends the transfer successfully with the bytes counted so far. */
    void succeed() {
        if (result.complete(bytes.get())) {
            closeAll();
        }
    }

    /** Ends the transfer with {@code cause} (wrapped in an IOException if it is none). */
    void fail(Throwable cause) {
        IOException error = cause instanceof IOException io ? io
                : new IOException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        if (result.completeExceptionally(error)) {
            closeAll();
        }
    }

    private void closeAll() {
        for (Channel channel : channels) {
            channel.close();
        }
    }
}
