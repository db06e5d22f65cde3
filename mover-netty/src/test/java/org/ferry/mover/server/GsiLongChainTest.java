package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.FtpCommandDecoder;
import org.ferry.mover.testing.FerryGsiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GSI logins whose ADAT lines are longer than an ordinary command line may be (RFC 2228 section 3
 * tokens carrying the TLS handshake, GFD.020): a 4096-bit CA ({@code grid-ca-create}'s default),
 * an intermediate CA carried in the user's chain, a 4096-bit user key and a proxy chain three deep.
 * The larger limit still has a bound: a line past it is refused with 500 and the session goes on.
 */
class GsiLongChainTest {

    @TempDir
    Path tmp;

    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "LongChain", Map.of("Deep User", "deep"), 4096);
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    @Test
    void aProxyThreeDeepUnderAnIntermediateOfAFourKilobitCaLogsIn() throws Exception {
        GsiCredential user = ferry.pki().userUnderIntermediateCa("Deep User", 4096);
        BcProxyFactory proxies = new BcProxyFactory();
        GsiCredential proxy = user;
        for (int depth = 0; depth < 3; depth++) {
            proxy = proxies.createProxy(proxy, ProxyRequest.impersonation());
        }
        assertThat(proxy.chain()).hasSize(5); // three proxies, the user, the intermediate CA
        // the chain alone, in base64, is longer than an ordinary command line may be
        long chainBytes = proxy.chain().stream()
                .mapToLong(GsiLongChainTest::encodedLength)
                .sum();
        assertThat(chainBytes * 4 / 3).isGreaterThan(FtpCommandDecoder.DEFAULT_MAX_LINE_BYTES);

        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(proxy));
                GridFtpSession session = client.open(ferry.url())) {
            session.makeDirectory("/deep");
        }
        assertThat(ferry.root().resolve("deep")).isDirectory();
    }

    @Test
    void anAdatLinePastTheBoundIsRefusedAndTheSessionGoesOn() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", ferry.port())) {
            socket.setSoTimeout(30_000);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = socket.getOutputStream();
            assertThat(in.readLine()).startsWith("220");
            out.write(("AUTH GSSAPI\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(in.readLine()).startsWith("334");
            byte[] line = new byte[FtpCommandDecoder.DEFAULT_MAX_SECURITY_LINE_BYTES + 10];
            java.util.Arrays.fill(line, (byte) 'A');
            out.write("ADAT ".getBytes(StandardCharsets.US_ASCII));
            out.write(line);
            out.write("\r\nQUIT\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(in.readLine()).isEqualTo("500 Command line too long.");
            assertThat(in.readLine()).startsWith("221");
        }
    }

    private static long encodedLength(X509Certificate certificate) {
        try {
            return certificate.getEncoded().length;
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
