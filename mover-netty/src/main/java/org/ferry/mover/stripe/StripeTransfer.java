package org.ferry.mover.stripe;

import io.netty.channel.Channel;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The shared state of one stripe's send over its connections: byte counter, result, connections to
 * close when it ends. Thread-safe; ends once, the first outcome wins; cancelling the result closes
 * the connections (ABOR).
 */
final class StripeTransfer implements org.ferry.mover.data.WritabilityPump.Progress {

    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicLong bytes = new AtomicLong();
    private final LongConsumer progress;

    StripeTransfer(LongConsumer progress) {
        this.progress = progress;
        result.whenComplete((v, e) -> channels.forEach(Channel::close));
    }

    CompletableFuture<Long> result() {
        return result;
    }

    @Override
    public boolean isDone() {
        return result.isDone();
    }

    void register(Channel channel) {
        channels.add(channel);
        if (result.isDone()) {
            channel.close(); // ended while this connection was being opened
        }
    }

    @Override
    public void addBytes(long n) {
        long total = bytes.addAndGet(n);
        if (progress != null) {
            progress.accept(total);
        }
    }

    void succeed() {
        result.complete(bytes.get());
    }

    @Override
    public void fail(Throwable cause) {
        result.completeExceptionally(cause);
    }
}
