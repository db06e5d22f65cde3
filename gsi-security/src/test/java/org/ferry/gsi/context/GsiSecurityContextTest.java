package org.ferry.gsi.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Initiator and acceptor in one JVM, tokens passed as the ADAT loop would (reference 4.1-4.3). */
class GsiSecurityContextTest {
    @TempDir
    static Path tmp;

    static TestPki pki;
    static GsiCredential host;
    static GsiCredential userProxy;
    static CanlChainValidator validator;
    static OpensslTrustDirectory trust;

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.create(tmp, "Ctx");
        host = pki.ca.issueHostCredential("host/localhost", pki.ca.newSetupKey());
        userProxy = new BcProxyFactory().createProxy(pki.user("Ctx User"), ProxyRequest.impersonation());
        validator = new CanlChainValidator(pki.trustDir());
        trust = OpensslTrustDirectory.load(pki.trustDir());
    }

    @AfterAll
    static void tearDown() {
        validator.close();
    }

    /** Runs the ADAT loop; returns the tokens exchanged (client, server, client, ...). */
    static List<byte[]> exchange(SecurityContext client, SecurityContext server) throws Exception {
        List<byte[]> tokens = new ArrayList<>();
        byte[] token = client.step(null);
        for (int i = 0; i < 20; i++) {
            tokens.add(token);
            byte[] reply = server.step(token);
            if (server.established()) {
                if (reply != null && reply.length > 0) {
                    tokens.add(reply);
                    client.step(reply);
                }
                return tokens;
            }
            tokens.add(reply);
            token = client.step(reply);
        }
        throw new AssertionError("ADAT loop did not finish");
    }

    @ParameterizedTest
    @EnumSource(DelegationMode.class)
    void authenticatesDelegatesAndProtects(DelegationMode mode) throws Exception {
        GsiSecurityContext client = GsiSecurityContext.initiator(
                userProxy, validator, trust, "localhost", 2811, null, mode, Duration.ofHours(1));
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        List<byte[]> tokens = exchange(client, server);

        assertThat(client.established()).isTrue();
        assertThat(server.established()).isTrue();
        assertThat(client.protocol()).isEqualTo("TLSv1.3");
        // TLS 1.3: ClientHello, server flight, client flight, 0x00, flag, [CSR, cert].
        assertThat(tokens).hasSize(mode == DelegationMode.NONE ? 5 : 7);
        assertThat(server.peer().identity()).isEqualTo("/O=Grid/OU=Ctx/CN=Ctx User");
        assertThat(client.peer().identity()).isEqualTo("/O=Grid/OU=Ctx/CN=host/localhost");
        assertThat(server.confidential()).isTrue();

        if (mode == DelegationMode.NONE) {
            assertThat(server.delegatedCredential()).isEmpty();
        } else {
            GsiCredential delegated = server.delegatedCredential().orElseThrow();
            var v = validator.validate(delegated.chain());
            assertThat(v.identity()).isEqualTo("/O=Grid/OU=Ctx/CN=Ctx User");
            assertThat(v.limited()).isEqualTo(mode == DelegationMode.LIMITED);
            assertThat(delegated.chain()).hasSize(userProxy.chain().size() + 1);
        }

        byte[] command = client.wrap("RETR /data/file\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(command, StandardCharsets.ISO_8859_1)).doesNotContain("RETR");
        assertThat(new String(server.unwrap(command), StandardCharsets.US_ASCII))
                .isEqualTo("RETR /data/file\r\n");
        byte[] reply = server.wrap("226 Transfer Complete.\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(client.unwrap(reply), StandardCharsets.US_ASCII)).isEqualTo("226 Transfer Complete.\r\n");
        // A replayed token is refused (TLS sequence numbers).
        assertThatThrownBy(() -> server.unwrap(command)).isInstanceOf(GsiContextException.class);
    }

    @ParameterizedTest
    @EnumSource(
            value = DelegationMode.class,
            names = {"NONE", "LIMITED"})
    void worksCappedAtTls12(DelegationMode mode) throws Exception {
        GsiSecurityContext client = GsiSecurityContext.initiator(
                        userProxy, validator, trust, "localhost", 2811, null, mode, Duration.ofHours(1))
                .tls12Only();
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        List<byte[]> tokens = exchange(client, server);
        assertThat(server.protocol()).isEqualTo("TLSv1.2");
        // TLS 1.2: ClientHello, ServerHello..Done, Cert..Finished, CCS+Finished, flag, [CSR, cert].
        assertThat(tokens).hasSize(mode == DelegationMode.NONE ? 5 : 7);
        assertThat(server.delegatedCredential().isPresent()).isEqualTo(mode != DelegationMode.NONE);
        byte[] token = client.wrap("NOOP\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(server.unwrap(token), StandardCharsets.US_ASCII)).isEqualTo("NOOP\r\n");
    }

    @Test
    void clientRefusesAServerWithTheWrongHostName() throws Exception {
        GsiSecurityContext client = GsiSecurityContext.initiator(
                userProxy, validator, trust, "otherhost", 2811, null, DelegationMode.NONE, Duration.ofHours(1));
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        assertThatThrownBy(() -> exchange(client, server))
                .isInstanceOf(GsiContextException.class)
                .hasMessageContaining("peer /O=Grid/OU=Ctx/CN=host/localhost is not the expected identity");
    }

    @Test
    void serverRefusesAnUntrustedClient() throws Exception {
        TestPki other = TestPki.create(tmp.resolve("other"), "Rogue");
        GsiCredential rogue = new BcProxyFactory().createProxy(other.user("Rogue"), ProxyRequest.impersonation());
        GsiSecurityContext client = GsiSecurityContext.initiator(
                rogue, validator, trust, "localhost", 2811, null, DelegationMode.NONE, Duration.ofHours(1));
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        assertThatThrownBy(() -> exchange(client, server))
                .isInstanceOf(GsiContextException.class)
                .hasMessageContaining("GSS authentication failed")
                .hasMessageContaining("No trusted CA certificate was found");
    }

    /** @return initiator and acceptor after the ADAT loop, nothing delegated */
    static GsiSecurityContext[] establishedWithoutDelegation() throws Exception {
        GsiSecurityContext client = GsiSecurityContext.initiator(
                userProxy, validator, trust, "localhost", 2811, null, DelegationMode.NONE, Duration.ofHours(1));
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        exchange(client, server);
        return new GsiSecurityContext[] {client, server};
    }

    @Test
    void anAlteredTokenFailsTheSecurityCheckAndEndsTheContext() throws Exception {
        GsiSecurityContext[] pair = establishedWithoutDelegation();
        GsiSecurityContext client = pair[0];
        GsiSecurityContext server = pair[1];
        byte[] token = client.wrap("DELE /important\r\n".getBytes(StandardCharsets.US_ASCII));
        token[token.length / 2] ^= 0x01;
        assertThatThrownBy(() -> server.unwrap(token))
                .isInstanceOf(GsiContextException.class)
                .hasMessageStartingWith("cannot verify protected message: ");
        // TLS treats a bad record as fatal: the next honest token cannot be verified either.
        byte[] next = client.wrap("NOOP\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> server.unwrap(next)).isInstanceOf(GsiContextException.class);
    }

    @Test
    void aTruncatedTokenIsRefusedAndTheNextWholeOneStillVerifies() throws Exception {
        GsiSecurityContext[] pair = establishedWithoutDelegation();
        GsiSecurityContext client = pair[0];
        GsiSecurityContext server = pair[1];
        byte[] token = client.wrap("MKD /x\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> server.unwrap(java.util.Arrays.copyOf(token, token.length - 3)))
                .isInstanceOf(GsiContextException.class)
                .hasMessage("cannot verify protected message: truncated TLS record (" + (token.length - 3)
                        + " bytes of an incomplete record)");
        // Nothing of the partial record stays behind to corrupt what follows.
        assertThat(new String(server.unwrap(token), StandardCharsets.US_ASCII)).isEqualTo("MKD /x\r\n");
    }

    @Test
    void wrapBeforeEstablishedIsRefused() throws Exception {
        GsiSecurityContext server = GsiSecurityContext.acceptor(host, validator, trust);
        assertThatThrownBy(() -> server.wrap(new byte[] {1})).hasMessage("security context not established");
    }
}
