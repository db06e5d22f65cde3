package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
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
 *
 * <p>A transfer is made for every file of a batch, on the event loop, between a client's command
 * and the first byte of the answer, so its bookkeeping stays small: its connections (one to a few)
 * live in plain lists under this object's lock instead of concurrent sets, and what it runs when it
 * ends or goes idle are named classes rather than capturing lambdas, which the C1-only JIT that
 * {@code bin/ferry-gridftp} runs allocates through a method handle (a runtime call each).
 */
final class DataTransfer implements WritabilityPump.Progress {

    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private final AtomicLong bytes = new AtomicLong();
    private final LongConsumer progress;
    private final ModeECache cache;
    private final ModeECache.Direction direction;
    /** This transfer's connections still to close at its end (guarded by this). */
    private final List<Channel> channels = new ArrayList<>(2);
    /** Connections marked for the cache (guarded by this). */
    private final List<Channel> kept = new ArrayList<>(2);
    /** The idle check, once armed and until the end (guarded by this). */
    private ScheduledFuture<?> idleCheck;

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
        result.whenComplete(new Ending(this));
    }

    /**
     * Fails the transfer with a {@link SocketTimeoutException} if no byte moves for {@code idle}
     * (no peer connecting, a stalled peer): per transfer, not per connection, because a MODE E
     * connection may rightly sit idle after its EOD while others still carry data. Does nothing
     * once the transfer has ended (a small file is often sent before this could be armed).
     */
    void failWhenIdle(io.netty.util.concurrent.EventExecutor loop, Duration idle) {
        long idleNanos = idle.toNanos();
        long periodNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), idleNanos / 4);
        synchronized (this) {
            if (result.isDone() || idleCheck != null) {
                return; // the end runs after isDone() turns true and cancels what it finds
            }
            idleCheck = loop.scheduleAtFixedRate(
                    new IdleCheck(this, idleNanos), periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** @return completes with the byte count, or exceptionally with an IOException */
    CompletableFuture<Long> result() {
        return result;
    }

    /** Records a connection of this transfer; it is closed when the transfer ends unless kept. */
    void register(Channel channel) {
        synchronized (this) {
            channels.add(channel);
        }
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
            synchronized (this) {
                kept.add(channel);
            }
        }
    }

    /** Ends the transfer successfully with the bytes counted so far; kept connections go to the cache first. */
    void succeed() {
        if (result.isDone()) {
            return;
        }
        if (cache != null) {
            List<Channel> reusable = new ArrayList<>(1);
            synchronized (this) {
                for (Channel channel : kept) {
                    if (channel.isActive() && channels.remove(channel)) {
                        reusable.add(channel);
                    }
                }
            }
            // outside the lock: a cache drops connections of the other direction, which runs close listeners
            for (Channel channel : reusable) {
                cache.put(channel, direction);
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

    /** The result completed: the idle check stops and the connections not cached close. */
    private void ended() {
        Channel[] open;
        ScheduledFuture<?> check;
        synchronized (this) {
            open = channels.toArray(new Channel[0]);
            check = idleCheck;
        }
        if (check != null) {
            check.cancel(false);
        }
        for (Channel channel : open) {
            channel.close();
        }
    }

    /** Runs {@link #ended} when the result completes. */
    private static final class Ending implements BiConsumer<Long, Throwable> {
        private final DataTransfer transfer;

        Ending(DataTransfer transfer) {
            this.transfer = transfer;
        }

        @Override
        public void accept(Long transferred, Throwable error) {
            transfer.ended();
        }
    }

    /** Fails the transfer when its byte count has not changed for the idle time; runs on one loop. */
    private static final class IdleCheck implements Runnable {
        private final DataTransfer transfer;
        private final long idleNanos;
        /** The byte count at the last change, and when it changed. */
        private long lastBytes = -1;

        private long lastChangeNanos = System.nanoTime();

        IdleCheck(DataTransfer transfer, long idleNanos) {
            this.transfer = transfer;
            this.idleNanos = idleNanos;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            long moved = transfer.bytes.get();
            if (moved != lastBytes) {
                lastBytes = moved;
                lastChangeNanos = now;
            } else if (now - lastChangeNanos > idleNanos) {
                transfer.fail(new SocketTimeoutException("data transfer idle for "
                        + TimeUnit.NANOSECONDS.toMillis(idleNanos) + " ms after " + moved + " bytes"));
            }
        }
    }
}
