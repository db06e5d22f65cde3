package org.ferry.mover.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension: before each test, the real globus-gridftp-server in GSI mode
 * ({@link GlobusGridFtpServer#startGsi}) over a {@link GsiTestPki}, and an RFC 3820 proxy for a user
 * its grid-mapfile maps to {@value GlobusGridFtpServer#USER}, for Ferry's client; after it, the
 * server stopped and its root deleted. Skips the test without the server or without root.
 *
 * <pre>
 * &#64;RegisterExtension
 * final GlobusServerForFerry globus = new GlobusServerForFerry("GlobusSrv", "Ferry Client");
 * </pre>
 */
final class GlobusServerForFerry implements BeforeEachCallback, AfterEachCallback {

    private final String unit;
    private final String userCn;
    private Path dir;
    private GsiTestPki pki;
    private GlobusGridFtpServer server;
    private GsiCredential proxy;

    /**
     * @param unit the OU of the CA, host and user
     * @param userCn the CN of the user the server lets in
     */
    GlobusServerForFerry(String unit, String userCn) {
        this.unit = unit;
        this.userCn = userCn;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("ferry-globus-gsi-");
        pki = GsiTestPki.create(dir, unit);
        server = GlobusGridFtpServer.startGsi(pki, dir.resolve("globus"), userCn);
        proxy = pki.proxy(userCn);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (server != null) {
            server.close();
        }
        if (pki != null) {
            pki.close();
        }
        GlobusGridFtpServer.deleteTree(dir);
    }

    /** @return the CA, trust and host credential both servers use */
    GsiTestPki pki() {
        return pki;
    }

    /** @return the user's proxy */
    GsiCredential proxy() {
        return proxy;
    }

    /** @return the directory the server serves (paths in its URLs are absolute) */
    Path root() {
        return server.root();
    }

    /** @return {@code gsiftp://localhost:PORT/} */
    GridFtpUrl url() {
        return GridFtpUrl.parse("gsiftp://localhost:" + server.port() + "/");
    }

    /** @return the control port */
    int port() {
        return server.port();
    }

    /** @return Ferry's client settings for {@link #proxy()}: limited delegation, this PKI's trust */
    GsiClientSecurity clientSecurity() {
        return GsiClientSecurity.of(proxy, pki.validator(), pki.trust());
    }
}
