package org.ferry.mover.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Transport#boundServerChannel}: the ports tried in turn on one socket, for both transports. */
class TransportTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    static Stream<Transport> transports() {
        List<Transport> available = new ArrayList<>(List.of(Transport.NIO));
        if (Epoll.isAvailable()) {
            available.add(Transport.EPOLL);
        }
        return available.stream();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void skipsTakenPortsAndListensOnTheFirstFreeOne(Transport transport) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK);
                ServerSocket free = new ServerSocket(0, 1, LOOPBACK)) {
            int takenPort = taken.getLocalPort();
            int freePort = free.getLocalPort();
            free.close(); // a port nothing holds now
            assertThat(listenAndConnect(transport, takenPort, takenPort, freePort, 0))
                    .isEqualTo(freePort);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void fallsBackToTheKernelsChoiceAfterTheLastTakenPort(Transport transport) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
            int takenPort = taken.getLocalPort();
            assertThat(listenAndConnect(transport, takenPort, 0)).isPositive().isNotEqualTo(takenPort);
        }
    }

    /** Binds a listener on the first of {@code ports} it can, connects a client to it; returns its port. */
    private static int listenAndConnect(Transport transport, int... ports) throws Exception {
        EventLoopGroup group = transport.newGroup(1, null);
        try {
            ServerChannel listener = transport.boundServerChannel(LOOPBACK, ports, 4, 0);
            try {
                group.register(listener).sync();
                int port = ((InetSocketAddress) listener.localAddress()).getPort();
                try (Socket client = new Socket(LOOPBACK, port)) {
                    assertThat(client.isConnected()).isTrue();
                }
                return port;
            } finally {
                listener.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void throwsWhenEveryPortIsTaken(Transport transport) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
            int takenPort = taken.getLocalPort();
            assertThatThrownBy(() -> transport.boundServerChannel(LOOPBACK, new int[] {takenPort, takenPort}, 4, 0))
                    .isInstanceOf(IOException.class);
        }
        assertThatThrownBy(() -> transport.boundServerChannel(LOOPBACK, new int[0], 4, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
