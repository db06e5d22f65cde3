package org.ferry.mover.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.PassiveListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A send's 150/125 is prompt only when the data goes to the control client itself: an active
 * endpoint on the control peer's address, on a port that is not one of this server's own listeners
 * (a transfer between two sessions of one server). Real listeners on loopback: this server's own
 * ({@link DataChannels#listen}) and another process's stand-in (a plain {@link ServerSocket}, as
 * globus-url-copy's data listener).
 */
class PreliminaryReplyTimingTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final InetSocketAddress CLIENT = new InetSocketAddress(LOOPBACK, 40_000);
    private static EventLoopGroup group;

    @BeforeAll
    static void setUp() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void promptWhenTheClientsHostListensOnAPortNotOurs() throws Exception {
        DataChannels server = new DataChannels(group);
        try (ServerSocket clientListener = new ServerSocket(0, 1, LOOPBACK)) {
            var endpoint = new DataEndpoint.Active(new InetSocketAddress(LOOPBACK, clientListener.getLocalPort()));
            assertThat(PreliminaryReplyTiming.prompt(endpoint, CLIENT, server)).isTrue();
        }
    }

    @Test
    void notPromptWhenTheDataGoesToOneOfThisServersOwnListeners() throws Exception {
        DataChannels server = new DataChannels(group);
        try (PassiveListener own = server.listen(LOOPBACK)) {
            var endpoint = new DataEndpoint.Active(own.address());
            assertThat(PreliminaryReplyTiming.prompt(endpoint, CLIENT, server)).isFalse();
            // another session's view of the same server sees the same listener
            assertThat(PreliminaryReplyTiming.prompt(endpoint, CLIENT, server.homedOn(group.next())))
                    .isFalse();
        }
    }

    @Test
    void notPromptWhenTheDataGoesToAnotherHost() throws Exception {
        DataChannels server = new DataChannels(group);
        var elsewhere = new DataEndpoint.Active(new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 50_000));
        assertThat(PreliminaryReplyTiming.prompt(elsewhere, CLIENT, server)).isFalse();
    }

    @Test
    void notPromptWhenThisServerListensOrThePeerIsUnknown() throws Exception {
        DataChannels server = new DataChannels(group);
        try (PassiveListener own = server.listen(LOOPBACK);
                ServerSocket clientListener = new ServerSocket(0, 1, LOOPBACK)) {
            assertThat(PreliminaryReplyTiming.prompt(new DataEndpoint.Passive(own), CLIENT, server))
                    .isFalse();
            var active = new DataEndpoint.Active(new InetSocketAddress(LOOPBACK, clientListener.getLocalPort()));
            EmbeddedChannel notIp = new EmbeddedChannel();
            assertThat(PreliminaryReplyTiming.prompt(active, notIp.remoteAddress(), server))
                    .isFalse();
            assertThat(PreliminaryReplyTiming.prompt(active, null, server)).isFalse();
            notIp.finishAndReleaseAll();
        }
    }
}
