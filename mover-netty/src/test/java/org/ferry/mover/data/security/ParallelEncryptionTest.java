package org.ferry.mover.data.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.Test;

/**
 * PROT P with four MODE E connections through {@link DataChannels#secured}: the bytes arrive intact
 * and are decrypted on more than one event loop thread, because every connection has its own TLS
 * engine on its own event loop (issue 4: encrypted throughput grows with parallelism).
 */
class ParallelEncryptionTest extends GsiClearHandshakeTest {

    @Test
    void fourPrivateConnectionsRunOnSeveralEventLoops() throws Exception {
        byte[] data = new byte[8 << 20];
        new Random(3).nextBytes(data);
        byte[] received = new byte[data.length];
        Set<String> threads = ConcurrentHashMap.newKeySet();
        DataSink sink = (buffer, offset) -> {
            threads.add(Thread.currentThread().getName());
            buffer.get(received, (int) offset, buffer.remaining());
        };
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(4, NioIoHandler.newFactory());
        try (LeakCapture leaks = LeakCapture.open()) {
            DataChannels plain = new DataChannels(group, 256 * 1024, Duration.ofSeconds(30));
            DataChannels secured = plain.secured(new DataChannelSecurity(
                    alice, validator, trust, DataChannelAuthentication.SELF, ProtectionLevel.PRIVATE));
            try (PassiveListener listener = plain.listen(InetAddress.getLoopbackAddress())) {
                var in = secured.receive(sink, new DataEndpoint.Passive(listener), true, null);
                var out = secured.send(
                        DataSource.ofBytes(data), new DataEndpoint.Active(listener.address()), true, 4, null);
                assertThat(out.get(60, TimeUnit.SECONDS)).isEqualTo(data.length);
                assertThat(in.get(60, TimeUnit.SECONDS)).isEqualTo(data.length);
            }
            assertThat(Arrays.equals(received, data)).isTrue();
            assertThat(threads).as("event loops that decrypted").hasSizeGreaterThan(1);
            leaks.assertNoLeaks();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Override
    void authenticatesThenPassesClearBytesUnderTls13And12() {
        // covered by GsiClearHandshakeTest; this class reuses its PKI only
    }

    @Override
    void refusesAPeerWithAnotherIdentity() {
        // covered by GsiClearHandshakeTest
    }
}
