package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The shared state of one data transfer over one or more connections: the byte counter, the
 * result, and the connections to close when it ends. Thread-safe: connections of one transfer may
 * run on different event loops. Ends once; the first outcome wins.
 *
 * <p>With a {@link ModeECache}, connections marked {@linkplain #keep kept} (a MODE E connection that
 * ended its part with EOD but no CLOSE) go into the cache when the transfer succeeds, before its
 * result completes, so that the next transfer command (possibly already queued) finds them. On
 * failure or cancel every connection is closed.
 */
final class DataTransfer implements WritabilityPump.Progress {

    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicLong bytes = new AtomicLong();
    private final Set<Channel> kept = ConcurrentHashMap.newKeySet();
    private final LongConsumer progress;
    private final ModeECache cache;
    private final ModeECache.Direction direction;

    /** @param progress called with cumulative bytes after every increment; may be null */
    DataTransfer(LongConsumer progress) {
        this(progress, null, null);
    }

    /**
     * @param progress called with cumulative bytes after every increment; may be null
     * @param cache where kept connections go on success; null to close every connection at the end
     * @param direction which way this transfer carries data (for the cache)
     */
    DataTransfer(LongConsumer progress, ModeECache cache, ModeECache.Direction direction) {
        this.progress = progress;
        this.cache = cache;
        this.direction = direction;
        // However the result ends (including a caller's cancel or completeExceptionally, which is
        // how an ABOR stops a transfer), the connections go.
        result.whenComplete((bytes, error) -> closeAll());
    }

    /**
     * Fails the transfer with a {@link SocketTimeoutException} if no byte moves for {@code idle}
     * (no peer connecting, a stalled peer): per transfer, not per connection, because a MODE E
     * connection may rightly sit idle after its EOD while others still carry data.
     */
    void failWhenIdle(io.netty.util.concurrent.EventExecutor loop, Duration idle) {
        long idleNanos = idle.toNanos();
        long periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), idleNanos / 4);
        long[] last = {-1, System.nanoTime()}; // bytes at the last change, time of the last change
        ScheduledFuture<?> check = loop.scheduleAtFixedRate(
                () -> {
                    long now = System.nanoTime();
                    long moved = bytes.get();
                    if (moved != last[0]) {
                        last[0] = moved;
                        last[1] = now;
                    } else if (now - last[1] > idleNanos) {
                        fail(new SocketTimeoutException(
                                "data transfer idle for " + idle.toMillis() + " ms after " + moved + " bytes"));
                    }
                },
                periodNanos,
                periodNanos,
                TimeUnit.NANOSECONDS);
        result.whenComplete((b, e) -> check.cancel(false));
    }

    /** @return completes with the byte count, or exceptionally with an IOException */
    CompletableFuture<Long> result() {
        return result;
    }

    /** Records a connection of this transfer; it is closed when the transfer ends unless kept. */
    void register(Channel channel) {
        channels.add(channel);
        if (result.isDone()) {
            channel.close();
        }
    }

    /** Adds {@code n} moved bytes and reports the new total. */
    @Override
    public void addBytes(long n) {
        long total = bytes.addAndGet(n);
        if (progress != null) {
            progress.accept(total);
        }
    }

    /** @return true once the transfer succeeded or failed */
    @Override
    public boolean isDone() {
        return result.isDone();
    }

    /** @return true if this transfer keeps its MODE E connections for the next one */
    boolean caching() {
        return cache != null;
    }

    /**
     * Marks {@code channel} as reusable: if the transfer succeeds it goes into the cache instead of
     * being closed. Ignored without a cache.
     */
    void keep(Channel channel) {
        if (cache != null) {
            kept.add(channel);
        }
    }

    /** Ends the transfer successfully with the bytes counted so far; kept connections go to the cache first. */
    void succeed() {
        if (result.isDone()) {
            return;
        }
        if (cache != null) {
            for (Channel channel : kept) {
                if (channel.isActive() && channels.remove(channel)) {
                    cache.put(channel, direction);
                }
            }
        }
        result.complete(bytes.get());
    }

    /** Ends the transfer with {@code cause} (wrapped in an IOException if it is none). */
    @Override
    public void fail(Throwable cause) {
        IOException error = cause instanceof IOException io
                ? io
                : new IOException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        result.completeExceptionally(error);
    }

    private void closeAll() {
        for (Channel channel : channels) {
            channel.close();
        }
    }
}
