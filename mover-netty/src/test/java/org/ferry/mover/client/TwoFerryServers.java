package org.ferry.mover.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real Ferry servers on 127.0.0.1 (user {@code alice}, password {@code pw}) over {@code tmp/src}
 * and {@code tmp/dst}, and a client: the fixture of the client's Ferry-to-Ferry tests. Subclasses
 * change a server's settings by overriding {@link #sourceConfig} or {@link #destinationConfig}.
 */
abstract class TwoFerryServers {

    static final Authenticator ALICE = (u, p) -> u.equals("alice") && p.equals("pw");

    @TempDir
    Path tmp;

    Path sourceRoot;
    Path destinationRoot;
    GridFtpServer source;
    GridFtpServer destination;
    GridFtpClient client;

    /** @return the source server's settings (loopback, alice) */
    GridFtpServerConfig sourceConfig(Path root) {
        return GridFtpServerConfig.loopback(root).withAuthenticator(ALICE);
    }

    /** @return the destination server's settings (loopback, alice) */
    GridFtpServerConfig destinationConfig(Path root) {
        return GridFtpServerConfig.loopback(root).withAuthenticator(ALICE);
    }

    @BeforeEach
    void startServers() throws IOException {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        source = GridFtpServer.start(sourceConfig(sourceRoot));
        destination = GridFtpServer.start(destinationConfig(destinationRoot));
        client = new GridFtpClient();
    }

    @AfterEach
    void stopServers() {
        client.close();
        source.close();
        destination.close();
    }

    /** @return a session logged in to {@code server} as alice */
    DefaultGridFtpSession open(GridFtpServer server) throws IOException {
        return (DefaultGridFtpSession) client.open(GridFtpUrl.parse("ftp://alice:pw@127.0.0.1:" + server.port() + "/"));
    }
}
