package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link DataChannels#acceptsOn} knows the ports of the listeners of every view of one data
 * transfer process and of the connections they accepted, also after the listener closed (a cached
 * MODE E connection), and forgets a port once its last socket closed; another process's listening
 * port is not its own. Real loopback sockets and a real MODE E transfer make the connections.
 */
class DataChannelsAcceptsOnTest {

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
}
