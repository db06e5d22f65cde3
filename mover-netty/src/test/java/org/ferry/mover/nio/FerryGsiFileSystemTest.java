package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract against ferry-gridftp in GSI mode (in this JVM, one server for the class): a
 * {@code gsiftp://localhost} file system whose credential (a proxy of a user the grid-mapfile maps)
 * comes in the {@code env} map; data channels authenticated (DCAU A), so third-party copies on one
 * server delegate and check identities too.
 */
class FerryGsiFileSystemTest extends RemoteFileSystemContract {

    @TempDir
    static Path tmp;

    private static GsiTestPki pki;
    private static Path root;
    private static GridFtpServerConfig config;
    private static GsiServerSecurity security;
    private static GridFtpServer server;
    private static FileSystem fileSystem;

    @BeforeAll
    static void start() throws Exception {
        pki = GsiTestPki.create(tmp.resolve("pki"), "NioGsi");
        root = Files.createDirectory(tmp.resolve("root"));
        security = pki.serverSecurity(pki.gridMapLine("Nio User", "nio"));
        config = GridFtpServerConfig.loopback(root);
        server = GridFtpServer.start(config, security);
        config = config.withPort(server.port());
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
        Files.createDirectory(root.resolve(name));
        return fileSystem.getPath("/" + name);
    }

    @Override
    protected Path local(Path path) {
        return root.resolve(path.toAbsolutePath().toString().substring(1));
    }

    @Override
    protected void restartServer() throws IOException {
        server.close();
        server = GridFtpServer.start(config, security);
    }

    @Test
    void withoutACredentialTheFirstOperationSaysToRunGridProxyInit() throws IOException {
        URI uri = URI.create("gsiftp://localhost:" + server.port() + "/");
        Path missing = tmp.resolve("no-proxy-here");
        try (FileSystem bare = FileSystems.newFileSystem(
                URI.create("gsiftp://nobody@localhost:" + server.port() + "/"),
                Map.of(
                        "X509_USER_PROXY",
                        missing.toString(),
                        "X509_CERT_DIR",
                        pki.trustDirectory().toString()))) {
            assertThat(bare.provider().getScheme()).isEqualTo(uri.getScheme());
            assertThatThrownBy(() -> Files.size(bare.getPath("/x")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("grid-proxy-init")
                    .hasMessageContaining(missing.toString());
        }
    }
}
