package org.ferry.mover.nio;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract against ferry-gridftp (in this JVM, one server for the class) through an
 * {@code ftp://} file system, user and password from the {@code env} map, small windows.
 */
class FerryFileSystemTest extends RemoteFileSystemContract {

    @TempDir
    static Path tmp;

    private static Path root;
    private static GridFtpServerConfig config;
    private static GridFtpServer server;
    private static FileSystem fileSystem;

    @BeforeAll
    static void start() throws IOException {
        root = Files.createDirectory(tmp.resolve("root"));
        config = GridFtpServerConfig.loopback(root).withAuthenticator((u, p) -> u.equals("alice") && p.equals("pw"));
        server = GridFtpServer.start(config);
        config = config.withPort(server.port());
        fileSystem = FileSystems.newFileSystem(
                URI.create("ftp://alice@127.0.0.1:" + server.port() + "/"), smallWindows(Map.of("password", "pw")));
    }

    @AfterAll
    static void stop() throws IOException {
        if (fileSystem != null) {
            fileSystem.close();
        }
        if (server != null) {
            server.close();
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
        server = GridFtpServer.start(config);
    }
}
