package org.ferry.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.nio.GridFtpFileSystemProvider;
import org.ferry.mover.nio.RemoteFileSystemContract;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code Files} contract against the real globus-gridftp-server in GSI mode (the harness the
 * GSI interop tests use: a test CA, {@code host/localhost}, a grid-mapfile mapping the test user to
 * the unprivileged account) through a {@code gsiftp://localhost} file system with the user's proxy
 * in the {@code env} map; data channels authenticated (DCAU A), as globus-url-copy's defaults.
 */
class GlobusGsiFileSystemTest extends RemoteFileSystemContract {

    @TempDir
    static Path work;

    private static GsiTestPki pki;
    private static GlobusGridFtpServer server;
    private static FileSystem fileSystem;

    @BeforeAll
    static void start() throws Exception {
        GlobusTools.assumeInstalled();
        pki = GsiTestPki.create(work.resolve("pki"), "NioGlobus");
        server = GlobusGridFtpServer.startGsi(pki, work.resolve("server"), "Nio User");
        GsiClientSecurity credential = GsiClientSecurity.of(pki.proxy("Nio User"), pki.validator(), pki.trust());
        fileSystem = FileSystems.newFileSystem(
                URI.create("gsiftp://localhost:" + server.port() + "/"),
                smallWindows(Map.of(GridFtpFileSystemProvider.GSI, credential)));
    }

    @AfterAll
    static void stop() throws IOException {
        if (fileSystem != null) {
            fileSystem.close();
        }
        if (server != null) {
            server.close();
        }
        if (pki != null) {
            pki.close();
        }
    }

    @Override
    protected Path newDirectory(String name) throws IOException {
        Path local = Files.createDirectory(server.root().resolve(name));
        GlobusGridFtpServer.chown(local);
        return fileSystem.getPath(local.toString());
    }

    @Override
    protected Path local(Path path) {
        return Path.of(path.toAbsolutePath().toString());
    }

    @Override
    protected void restartServer() throws IOException {
        server = server.restart();
    }
}
