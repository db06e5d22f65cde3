package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A {@link PassiveListener} on a Netty server channel. Accepted connections start with auto-read
 * off and wait in a queue until a transfer {@linkplain #attach attaches}, because a peer may connect
 * (after PASV, or the server after PORT) before the transfer command has been issued locally.
 */
final class NettyPassiveListener implements PassiveListener {

    private final Deque<Channel> waiting = new ArrayDeque<>();
    private final InetSocketAddress address;
    private Channel serverChannel;
    private Consumer<Channel> consumer;
    private BooleanSupplier consumerDone = () -> true;
    private boolean closed;
    private final java.util.List<Runnable> onClose = new java.util.ArrayList<>();

    /** @param address the address the socket is bound to */
    NettyPassiveListener(InetSocketAddress address) {
        this.address = address;
    }

    /** Sets the Netty server channel; called once, right after registration. */
    void bound(Channel serverChannel) {
        boolean close;
        synchronized (this) {
            this.serverChannel = serverChannel;
            close = closed;
        }
        if (close) {
            serverChannel.close();
        }
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    /** Called for every accepted connection, on its event loop. */
    void accepted(Channel channel) {
        Consumer<Channel> target;
        synchronized (this) {
            if (closed) {
                channel.close();
                return;
            }
            target = consumer != null && consumerDone.getAsBoolean() ? null : consumer; // ended: keep for the next
            if (target == null) {
                waiting.add(channel);
                channel.closeFuture().addListener(f -> forget(channel));
                return;
            }
        }
        target.accept(channel);
    }

    /** @return how many accepted connections wait for a transfer to attach */
    synchronized int waitingConnections() {
        return waiting.size();
    }

    private synchronized void forget(Channel channel) {
        waiting.remove(channel);
    }

    /**
     * Hands queued and future connections to {@code transferConsumer} until {@link #detach}.
     *
     * @param transferDone tells whether the attached transfer has ended: a transfer that ended but
     *     has not detached yet (its completion callbacks may run after the next command started)
     *     does not block the next one
     * @throws IllegalStateException if another running transfer is attached or the listener is closed
     */
    void attach(Consumer<Channel> transferConsumer, BooleanSupplier transferDone) {
        Deque<Channel> queued;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("listener closed");
            }
            if (consumer != null && !consumerDone.getAsBoolean()) {
                throw new IllegalStateException("another transfer is using this listener");
            }
            consumer = transferConsumer;
            consumerDone = transferDone;
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
    public void whenClosed(Runnable action) {
        synchronized (this) {
            if (!closed) {
                onClose.add(action);
                return;
            }
        }
        runQuietly(action);
    }

    private static void runQuietly(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            // a hook of the embedding server: its failure must not keep the listener open
        }
    }

    @Override
    public void close() {
        Deque<Channel> queued;
        Channel server;
        java.util.List<Runnable> hooks;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            hooks = new java.util.ArrayList<>(onClose);
            onClose.clear();
            queued = new ArrayDeque<>(waiting);
            waiting.clear();
            server = serverChannel;
        }
        if (server != null) {
            server.close();
        }
        queued.forEach(Channel::close);
        hooks.forEach(NettyPassiveListener::runQuietly);
    }
}
