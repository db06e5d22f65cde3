package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * A {@link PassiveListener} on a Netty server channel. Accepted connections start with auto-read
 * off and wait in a queue until a transfer {@linkplain #attach attaches}, because a peer may connect
 * (after PASV, or the server after PORT) before the transfer command has been issued locally.
 */
final class NettyPassiveListener implements PassiveListener {

    private final Deque<Channel> waiting = new ArrayDeque<>();
    private Channel serverChannel;
    private Consumer<Channel> consumer;
    private boolean closed;

    /** Sets the bound server channel; called once, right after bind. */
    synchronized void bound(Channel serverChannel) {
        this.serverChannel = serverChannel;
    }

    @Override
    public synchronized InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** Called for every accepted connection, on its event loop. */
    void accepted(Channel channel) {
        Consumer<Channel> target;
        synchronized (this) {
            if (closed) {
                channel.close();
                return;
            }
            target = consumer;
            if (target == null) {
                waiting.add(channel);
                channel.closeFuture().addListener(f -> forget(channel));
                return;
            }
        }
        target.accept(channel);
    }

    private synchronized void forget(Channel channel) {
        waiting.remove(channel);
    }

    /**
     * Hands queued and future connections to {@code transferConsumer} until {@link #detach}.
     *
     * @throws IllegalStateException if another transfer is attached or the listener is closed
     */
    void attach(Consumer<Channel> transferConsumer) {
        Deque<Channel> queued;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("listener closed");
            }
            if (consumer != null) {
                throw new IllegalStateException("another transfer is using this listener");
            }
            consumer = transferConsumer;
            queued = new ArrayDeque<>(waiting);
            waiting.clear();
        }
        queued.forEach(transferConsumer);
    }

    /** Stops handing connections to {@code transferConsumer}, if it is still attached. */
    synchronized void detach(Consumer<Channel> transferConsumer) {
        if (consumer == transferConsumer) {
            consumer = null;
        }
    }

    @Override
    public void close() {
        Deque<Channel> queued;
        synchronized (this) {
            closed = true;
            queued = new ArrayDeque<>(waiting);
            waiting.clear();
        }
        if (serverChannel != null) {
            serverChannel.close();
        }
        queued.forEach(Channel::close);
    }
}
