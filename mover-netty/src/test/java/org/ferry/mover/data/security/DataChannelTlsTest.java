package org.ferry.mover.data.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.testing.GsiTestPki;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DataChannelTls} under PROT S/P (GFD.020 "DCAU", RFC 2228 section 3 (PROT)): on the platforms whose native
 * library netty-tcnative-boringssl-static ships, data channels use BoringSSL; a BoringSSL side and a
 * JDK side interoperate in either TLS role with limited proxy credentials (so a Ferry peer on a
 * platform without the native library still works); and under BoringSSL a peer with another
 * identity is refused with the GSI reason, in both roles. The Globus interop tests
 * (GsiDataChannelGlobusTest, GsiDataChannelGlobusServerTest) run the preferred provider against
 * globus-url-copy and globus-gridftp-server.
 */
class DataChannelTlsTest {
    @TempDir
    static Path tmp;

    static GsiTestPki pki;
    static CanlChainValidator validator;
    static OpensslTrustDirectory trust;
    static GsiCredential alice;
    static GsiCredential bob;

    EventLoopGroup group;

    @BeforeAll
    static void pki() throws Exception {
        pki = GsiTestPki.create(tmp, "Tls");
        validator = pki.validator();
        trust = pki.trust();
        alice = pki.proxy("Alice", ProxyRequest.limited());
        bob = pki.proxy("Bob", ProxyRequest.limited());
    }

    @AfterAll
    static void closeValidator() {
        pki.close();
    }

    @BeforeEach
    void loops() {
        group = new MultiThreadIoEventLoopGroup(4, NioIoHandler.newFactory());
    }

    @AfterEach
    void stopLoops() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    static DataChannelSecurity security(
            GsiCredential own, DataChannelAuthentication dcau, ProtectionLevel level, DataChannelTls.Provider provider)
            throws Exception {
        return new DataChannelSecurity(own, validator, trust, dcau, level, provider);
    }

    static boolean nativeLibraryShipped() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        return os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
    }

    @Test
    void boringSslEncryptsWhereItsNativeLibraryShips() throws Exception {
        assumeTrue(nativeLibraryShipped(), "netty-tcnative-boringssl-static ships Linux x86_64/aarch64 here");
        assertThat(DataChannelTls.preferredProvider()).isEqualTo(DataChannelTls.Provider.OPENSSL);
        assertThat(new DataChannelSecurity(
                                alice, validator, trust, DataChannelAuthentication.SELF, ProtectionLevel.PRIVATE)
                        .tlsProvider())
                .isEqualTo(DataChannelTls.Provider.OPENSSL);
        assertThat(new DataChannelSecurity(
                                alice, validator, trust, DataChannelAuthentication.SELF, ProtectionLevel.CLEAR)
                        .tlsProvider())
                .as("PROT C: JDK handshake only")
                .isNull();
    }

    /** Moves 3 MB of random bytes in MODE E over {@code p} connections; returns what arrived. */
    byte[] transfer(DataChannelSecurity sender, DataChannelSecurity receiver, int p) throws Exception {
        byte[] data = new byte[3_000_000];
        new Random(41).nextBytes(data);
        byte[] received = new byte[data.length];
        DataSink sink = (buffer, offset) -> buffer.get(received, (int) offset, buffer.remaining());
        DataChannels plain = new DataChannels(group, 256 * 1024, Duration.ofSeconds(30));
        try (PassiveListener listener = plain.listen(InetAddress.getLoopbackAddress())) {
            var in = plain.secured(receiver).receive(sink, new DataEndpoint.Passive(listener), true, null);
            var out = plain.secured(sender)
                    .send(DataSource.ofBytes(data), new DataEndpoint.Active(listener.address()), true, p, null);
            assertThat(out.get(60, TimeUnit.SECONDS)).isEqualTo(data.length);
            assertThat(in.get(60, TimeUnit.SECONDS)).isEqualTo(data.length);
        }
        assertThat(received).isEqualTo(data);
        return received;
    }

    @ParameterizedTest(name = "{0} connects to {1}, PROT {2}")
    @CsvSource({"OPENSSL, JDK, P", "JDK, OPENSSL, P", "OPENSSL, OPENSSL, P", "OPENSSL, JDK, S", "JDK, OPENSSL, S"})
    void boringSslAndJdkPeersInteroperateInBothRoles(
            DataChannelTls.Provider connecting, DataChannelTls.Provider accepting, char prot) throws Exception {
        assumeTrue(DataChannelTls.preferredProvider() == DataChannelTls.Provider.OPENSSL, "BoringSSL loads here");
        ProtectionLevel level = ProtectionLevel.parse(String.valueOf(prot)).orElseThrow();
        try (LeakCapture leaks = LeakCapture.open()) {
            transfer(
                    security(alice, DataChannelAuthentication.SELF, level, connecting),
                    security(alice, DataChannelAuthentication.SELF, level, accepting),
                    3);
            leaks.assertNoLeaks();
        }
    }

    @Test
    void acceptingSideRefusesAnotherIdentity() throws Exception {
        assumeTrue(DataChannelTls.preferredProvider() == DataChannelTls.Provider.OPENSSL, "BoringSSL loads here");
        // Bob connects and accepts Alice (DCAU S); Alice's DCAU A wants Alice and refuses Bob.
        assertRefused(
                security(
                        bob,
                        DataChannelAuthentication.subject(alice.identity()),
                        ProtectionLevel.PRIVATE,
                        DataChannelTls.Provider.OPENSSL),
                security(
                        alice,
                        DataChannelAuthentication.SELF,
                        ProtectionLevel.PRIVATE,
                        DataChannelTls.Provider.OPENSSL),
                true);
    }

    @Test
    void connectingSideRefusesAnotherIdentity() throws Exception {
        assumeTrue(DataChannelTls.preferredProvider() == DataChannelTls.Provider.OPENSSL, "BoringSSL loads here");
        // Alice connects wanting Alice (DCAU A); the acceptor would take Alice, but presents Bob.
        assertRefused(
                security(alice, DataChannelAuthentication.SELF, ProtectionLevel.SAFE, DataChannelTls.Provider.OPENSSL),
                security(
                        bob,
                        DataChannelAuthentication.subject(alice.identity()),
                        ProtectionLevel.SAFE,
                        DataChannelTls.Provider.OPENSSL),
                false);
    }

    /** The side that checks Bob's identity fails its transfer with the GSI reason. */
    void assertRefused(DataChannelSecurity sender, DataChannelSecurity receiver, boolean acceptorRefuses)
            throws Exception {
        DataChannels plain = new DataChannels(group, 256 * 1024, Duration.ofSeconds(20));
        try (PassiveListener listener = plain.listen(InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> in =
                    plain.secured(receiver).receive((b, o) -> {}, new DataEndpoint.Passive(listener), true, null);
            CompletableFuture<Long> out = plain.secured(sender)
                    .send(
                            DataSource.ofBytes(new byte[100_000]),
                            new DataEndpoint.Active(listener.address()),
                            true,
                            1,
                            null);
            assertThatThrownBy(() -> (acceptorRefuses ? in : out).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("data channel authentication")
                    .hasMessageContaining("CN=Bob is not the expected identity");
            (acceptorRefuses ? out : in).cancel(true); // the other side has lost its connection
        }
    }
}
