package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.AbstractThrowableAssert;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.GsiTestPki;
import org.ferry.mover.testing.RawGsiSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AUTH GSSAPI / ADAT, gridmap login and protected (632/ENC) commands between Ferry's client and
 * server, and the refusals a user meets at login, each with the text that reaches the user: DN not
 * in the grid-mapfile (530 Login incorrect), expired proxy, proxy signed by the wrong key,
 * untrusted CA and revoked certificate (530 from ADAT, the validator's reason), and a limited proxy
 * asked to delegate a full one (the client's own refusal).
 */
class GsiControlChannelTest {
    @TempDir
    Path tmp;

    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Mover", Map.of("Mapped User", "mapped"));
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    GridFtpClient client(String cn) throws Exception {
        return new GridFtpClient(
                Duration.ofSeconds(30), ferry.clientSecurity(ferry.pki().proxy(cn)));
    }

    @Test
    void ferryClientAuthenticatesDelegatesAndTransfersOverAProtectedChannel() throws Exception {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        Files.write(ferry.root().resolve("f.bin"), data);
        try (GridFtpClient client = client("Mapped User");
                GridFtpSession session = client.open(ferry.url())) {
            assertThat(session.list("/")).extracting(FileInfo::name).contains("f.bin");
            Path local = tmp.resolve("f.copy");
            assertThat(session.download("/f.bin", local, TransferOptions.STREAM, TransferListener.NONE))
                    .isEqualTo(data.length);
            assertThat(Files.readAllBytes(local)).isEqualTo(data);
            session.makeDirectory("/made-over-gsi");
        }
        assertThat(ferry.root().resolve("made-over-gsi")).isDirectory();
    }

    @Test
    void unmappedDnIsRefusedAtLogin() throws Exception {
        try (GridFtpClient client = client("Stranger")) {
            assertThatThrownBy(() -> client.open(ferry.url()))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining(
                            "Login incorrect. : Gridmap lookup failure: Could not map /O=Grid/OU=Mover/CN=Stranger");
        }
    }

    /** Opens a session with {@code security}, expecting the refusal; prints what the user sees. */
    AbstractThrowableAssert<?, ? extends Throwable> assertLoginRefused(GsiClientSecurity security) {
        GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), security);
        try {
            return assertThatThrownBy(() -> client.open(ferry.url()))
                    .satisfies(e -> System.out.println("refused as expected: " + e.getMessage()));
        } finally {
            client.close();
        }
    }

    @Test
    void anExpiredProxyIsRefusedAtAuthWithTheExpiry() throws Exception {
        GsiCredential user = ferry.pki()
                .user(
                        "Mapped User",
                        Instant.now().minus(Duration.ofDays(30)),
                        Instant.now().plus(Duration.ofDays(1)));
        Clock lastWeek = Clock.fixed(Instant.now().minus(Duration.ofDays(7)), ZoneOffset.UTC);
        GsiCredential expired = new BcProxyFactory(new BouncyCastleProvider(), lastWeek, new SecureRandom())
                .createProxy(user, ProxyRequest.impersonation());
        assertLoginRefused(ferry.clientSecurity(expired))
                .isInstanceOf(GridFtpReplyException.class)
                .hasMessageContaining("530")
                .hasMessageContaining(
                        "GSS authentication failed: certificate chain of /O=Grid/OU=Mover/CN=Mapped User/CN="
                                + expired.certificate().getSerialNumber() + " rejected: Certificate has expired on:");
    }

    @Test
    void aProxySignedByTheWrongKeyIsRefusedAtAuth() throws Exception {
        GsiCredential mapped = ferry.pki().user("Mapped User");
        // The mapped user's certificate with another key: the proxy names the user as issuer but
        // its signature does not verify with the user's public key.
        GsiCredential forged = new GsiCredential(ferry.pki().user("Mallory").privateKey(), mapped.chain());
        GsiCredential proxy = new BcProxyFactory().createProxy(forged, ProxyRequest.impersonation());
        assertLoginRefused(ferry.clientSecurity(proxy))
                .isInstanceOf(GridFtpReplyException.class)
                .hasMessageContaining("530")
                .hasMessageContaining(
                        "GSS authentication failed: certificate chain of /O=Grid/OU=Mover/CN=Mapped User/CN="
                                + proxy.certificate().getSerialNumber()
                                + " rejected: Signature of a certificate is invalid");
    }

    @Test
    void aCertificateFromAnUntrustedCaIsRefusedAtAuth() throws Exception {
        try (GsiTestPki rogue = GsiTestPki.create(tmp.resolve("rogue"), "Rogue")) {
            GsiCredential proxy = rogue.proxy("Mapped User");
            assertLoginRefused(ferry.clientSecurity(proxy))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining(
                            "GSS authentication failed: certificate chain of /O=Grid/OU=Rogue/CN=Mapped User/CN=")
                    .hasMessageContaining("No trusted CA certificate was found for the certificate chain");
        }
    }

    @Test
    void aRevokedCertificateIsRefusedAtAuth() throws Exception {
        GsiCredential user = ferry.pki().user("Mapped User");
        ferry.pki().ca().revoke(user.certificate());
        // The validator reads the CRL when made: a server started after the revocation.
        try (CanlChainValidator fresh = new CanlChainValidator(ferry.pki().trustDirectory());
                GridFtpServer server = GridFtpServer.start(
                        GridFtpServerConfig.loopback(ferry.root()),
                        new GsiServerSecurity(
                                ferry.pki().host(),
                                fresh,
                                ferry.pki().trust(),
                                new GridMapAuthorizer(
                                        GridMap.parse(ferry.pki().gridMapLine("Mapped User", "mapped")))));
                GridFtpClient client = new GridFtpClient(
                        Duration.ofSeconds(30),
                        ferry.clientSecurity(new BcProxyFactory().createProxy(user, ProxyRequest.impersonation())))) {
            assertThatThrownBy(() -> client.open(GridFtpUrl.parse("gsiftp://localhost:" + server.port() + "/")))
                    .satisfies(e -> System.out.println("refused as expected: " + e.getMessage()))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining("revoked")
                    .hasMessageContaining("/O=Grid/OU=Mover/CN=Mapped User");
        }
    }

    @Test
    void aLimitedProxyCannotDelegateTheFullProxyAsked() throws Exception {
        GsiCredential limited =
                new BcProxyFactory().createProxy(ferry.pki().user("Mapped User"), ProxyRequest.limited());
        GsiClientSecurity full = new GsiClientSecurity(
                limited, ferry.pki().validator(), ferry.pki().trust(), DelegationMode.FULL, Duration.ofHours(1), null);
        assertLoginRefused(full)
                .isInstanceOf(IOException.class)
                .hasMessage("GSI authentication with localhost failed: delegation failed: Can't sign a non-limited,"
                        + " non-independent proxy with a limited proxy");
        // The same proxy delegating a limited one, as globus-url-copy does, logs in.
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(limited));
                GridFtpSession session = client.open(ferry.url())) {
            assertThat(session.list("/")).isEmpty();
        }
    }

    @Test
    void repliesAreWrappedAndClearCommandsRefusedAfterAuthentication() throws Exception {
        try (RawGsiSession s =
                new RawGsiSession(ferry.port(), ferry.pki().proxy("Mapped User"), ferry.pki(), DelegationMode.NONE)) {
            assertThat(s.auth()).isEqualTo("334 Using authentication type; ADAT must follow.");
            String line;
            do {
                line = s.adat();
            } while (line.startsWith("335 ADAT="));
            assertThat(line).isEqualTo("235 GSSAPI Authentication successful.");
            s.send("PWD");
            assertThat(s.unwrap(s.readLine())).startsWith("533 Command protection level denied");
            s.send(s.protect("FEAT"));
            String first = s.readLine();
            assertThat(first).startsWith("632-");
            assertThat(s.unwrap(first)).startsWith("211-");
            String l;
            while ((l = s.readLine()).startsWith("632-")) {
                assertThat(s.unwrap(l)).doesNotStartWith("211 ");
            }
            assertThat(l).startsWith("632 ");
            assertThat(s.unwrap(l)).startsWith("211 ");
        }
    }
}
