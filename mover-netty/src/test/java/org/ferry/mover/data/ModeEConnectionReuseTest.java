package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cached MODE E connections (GFD.020 "Extended Block Mode", data connection reuse) carry transfer
 * after transfer with the handlers they were set up with: the sender and the receiving block writer
 * and EOD counter are handed each new transfer, none is added or removed, and every transfer's
 * bytes arrive whole. A cached connection keeps its listener's port known as this data transfer
 * process's own ({@link DataChannels#acceptsOn}, for every view) after the listener closed, until
 * the last one closes; another process's listening port is not its own.
 */
class ModeEConnectionReuseTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static EventLoopGroup group;

    @BeforeAll
    static void setUp() {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterAll
    static void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void keptConnectionsServeEveryTransferWithTheSameHandlers() throws Exception {
        DataChannels channels = new DataChannels(group, 4096);
        Random random = new Random(17);
        try (PassiveListener listener = channels.listen(LOOPBACK);
                ModeECache sending = new ModeECache();
                ModeECache receiving = new ModeECache()) {
            List<Object> firstHandlers = null;
            for (int i = 0; i < 20; i++) {
                byte[] data = new byte[i == 0 ? 0 : random.nextInt(3 * 4096 + 1)];
                random.nextBytes(data);
                PositionalMemorySink sink = DataSink.toMemory(data.length);
                var received = channels.receive(sink, new DataEndpoint.Passive(listener), true, null, receiving);
                var sent = channels.send(
                        DataSource.ofBytes(data), new DataEndpoint.Active(listener.address()), true, 2, null, sending);
                assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(data.length);
                assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(data.length);
                assertThat(sink.length()).isEqualTo(data.length);
                assertThat(sink.inputStream().readAllBytes()).isEqualTo(data);
                assertThat(sending.size()).isEqualTo(2);
                assertThat(receiving.size()).isEqualTo(2);
                List<Object> handlers = handlers(sending, receiving);
                if (firstHandlers == null) {
                    firstHandlers = handlers;
                } else {
                    assertThat(handlers).containsExactlyInAnyOrderElementsOf(firstHandlers);
                }
            }
        }
    }

    @Test
    void listenersAndTheirCachedConnectionsHoldThePortUntilTheLastCloses() throws Exception {
        DataChannels base = new DataChannels(group, 4096);
        EventLoop loop = group.next();
        // a view, as a server session uses: its listener counts for the whole process
        DataChannels view = base.homedOn(loop).withSocketBuffers(64 * 1024, 64 * 1024);
        try (ServerSocket stranger = new ServerSocket(0, 1, LOOPBACK);
                ModeECache sending = new ModeECache();
                ModeECache receiving = new ModeECache()) {
            PassiveListener listener = view.listen(LOOPBACK);
            int port = listener.address().getPort();
            assertThat(base.acceptsOn(port)).isTrue();
            assertThat(view.acceptsOn(port)).isTrue();
            assertThat(base.acceptsOn(stranger.getLocalPort())).isFalse();

            byte[] data = new byte[10_000];
            var received = view.receive(
                    DataSink.toMemory(data.length), new DataEndpoint.Passive(listener), true, null, receiving);
            var sent = base.send(
                    DataSource.ofBytes(data), new DataEndpoint.Active(listener.address()), true, 2, null, sending);
            assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(data.length);
            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(data.length);

            listener.close();
            loop.submit(() -> {}).sync(); // the listener's close ran on its loop before this
            assertThat(receiving.size()).isEqualTo(2);
            assertThat(base.acceptsOn(port))
                    .as("cached connections keep the port")
                    .isTrue();

            List<Channel> kept = receiving.takeAll(ModeECache.Direction.RECEIVE);
            CountDownLatch closed = new CountDownLatch(kept.size());
            for (Channel channel : kept) {
                // notified after the port count's own listener, added when the connection was accepted
                channel.close().channel().closeFuture().addListener(f -> closed.countDown());
            }
            assertThat(closed.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(base.acceptsOn(port)).isFalse();
        }
    }

    /** Every handler of the cached connections of both sides (taken out of the caches and put back). */
    private static List<Object> handlers(ModeECache sending, ModeECache receiving) {
        List<Object> handlers = new ArrayList<>();
        for (var entry : List.of(
                java.util.Map.entry(sending, ModeECache.Direction.SEND),
                java.util.Map.entry(receiving, ModeECache.Direction.RECEIVE))) {
            List<Channel> channels = entry.getKey().takeAll(entry.getValue());
            for (Channel channel : channels) {
                channel.pipeline().forEach(handler -> handlers.add(handler.getValue()));
                entry.getKey().put(channel, entry.getValue());
            }
        }
        return handlers;
    }
}
