package org.ferry.mover.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;

/**
 * Ferry's GridFTP server in GSI mode for tests, with the PKI behind it: a fresh {@link GsiTestPki},
 * a root directory, and a server on 127.0.0.1 and an ephemeral port offering only
 * {@code AUTH GSSAPI} (no clear-text logins) with the host credential {@code host/localhost} and a
 * grid-mapfile of the given users. Closing it stops the server and releases the PKI.
 */
public final class FerryGsiServer implements AutoCloseable {

    private final GsiTestPki pki;
    private final Path root;
    private final GridFtpServer server;

    private FerryGsiServer(GsiTestPki pki, Path root, GridFtpServer server) {
        this.pki = pki;
        this.root = root;
        this.server = server;
    }

    /**
     * Creates the PKI in {@code dir/ca}, the root {@code dir/root}, and starts the server.
     *
     * @param dir an empty directory
     * @param unit the OU of the CA, host and users
     * @param accountsByCn grid-mapfile: user CN to local account
     * @return the running server
     * @throws Exception if the PKI cannot be made, files cannot be written or the server cannot bind
     */
    public static FerryGsiServer start(Path dir, String unit, Map<String, String> accountsByCn) throws Exception {
        return start(dir, unit, accountsByCn, 2048);
    }

    /**
     * Starts a server as {@link #start(Path, String, Map)} does, under a CA with a key of {@code caKeyBits}.
     *
     * @param dir where the PKI and the served root go
     * @param unit the OU of the CA, host and users
     * @param accountsByCn grid-mapfile: user CN to local account
     * @param caKeyBits the CA's RSA key size
     * @return the running server
     * @throws Exception if the PKI cannot be made, files cannot be written or the server cannot bind
     */
    public static FerryGsiServer start(Path dir, String unit, Map<String, String> accountsByCn, int caKeyBits)
            throws Exception {
        GsiTestPki pki = GsiTestPki.create(dir, unit, caKeyBits);
        StringBuilder gridMap = new StringBuilder();
        new TreeMap<>(accountsByCn).forEach((cn, account) -> gridMap.append(pki.gridMapLine(cn, account)));
        Path root = Files.createDirectories(dir.resolve("root"));
        try {
            return new FerryGsiServer(
                    pki,
                    root,
                    GridFtpServer.start(GridFtpServerConfig.loopback(root), pki.serverSecurity(gridMap.toString())));
        } catch (Exception e) {
            pki.close();
            throw e;
        }
    }

    /** @return the CA, trust and credentials */
    public GsiTestPki pki() {
        return pki;
    }

    /** @return the directory served as {@code /} */
    public Path root() {
        return root;
    }

    /** @return the control channel port */
    public int port() {
        return server.port();
    }

    /** @return {@code gsiftp://localhost:PORT/} (localhost: the host certificate's name) */
    public GridFtpUrl url() {
        return GridFtpUrl.parse("gsiftp://localhost:" + port() + "/");
    }

    /**
     * @param credential the user's proxy
     * @return what Ferry's client needs to log in here with {@code credential}: this PKI's trust,
     *     limited delegation (as globus-url-copy)
     */
    public GsiClientSecurity clientSecurity(GsiCredential credential) {
        return GsiClientSecurity.of(credential, pki.validator(), pki.trust());
    }

    @Override
    public void close() {
        server.close();
        pki.close();
    }
}
