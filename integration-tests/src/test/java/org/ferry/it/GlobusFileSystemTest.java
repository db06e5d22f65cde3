package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.nio.RemoteFileSystemContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code Files} contract (mover-netty's {@link RemoteFileSystemContract}) against the real
 * globus-gridftp-server from Debian through an {@code ftp://} file system: anonymous login mapped
 * to the unprivileged test account, one server for the class, paths absolute on the server's host.
 * Skipped where the server is missing, except under {@code CI=true}, where that fails.
 *
 * <p>This server's clear-text control channel drops every byte outside printable ASCII (its telnet
 * driver), so names in UTF-8 cannot reach it: here the names are ASCII (spaces, {@code %}), and a
 * UTF-8 name is refused by the provider with an error that says why, creating nothing under a
 * mangled name. {@link GlobusGsiFileSystemTest} runs the UTF-8 names over GSI.
 */
class GlobusFileSystemTest extends RemoteFileSystemContract {

    private static GlobusGridFtpServer server;
    private static Path root;
    private static FileSystem fileSystem;

    @BeforeAll
    static void start() throws IOException {
        GlobusTools.assumeInstalled();
        root = GlobusGridFtpServer.createRoot();
        server = GlobusGridFtpServer.start();
        fileSystem = FileSystems.newFileSystem(URI.create(server.base() + "/"), smallWindows(Map.of()));
    }

    @AfterAll
    static void stop() throws IOException {
        if (fileSystem != null) {
            fileSystem.close();
        }
        if (server != null) {
            server.close();
        }
        GlobusGridFtpServer.deleteTree(root);
    }

    @Override
    protected Path newDirectory(String name) throws IOException {
        Path local = Files.createDirectory(root.resolve(name));
        GlobusGridFtpServer.chown(local);
        return fileSystem.getPath(local.toString());
    }

    @Override
    protected Path local(Path path) {
        return Path.of(path.toAbsolutePath().toString());
    }

    @Override
    protected List<String> awkwardNames() {
        return List.of("dir %41 x", "with space.txt", "100%.bin", "a%20b", " leading space", "semi;colon=x");
    }

    @Test
    void aUtf8NameIsRefusedRatherThanSentAsAnotherName() throws IOException {
        Path file = dir.resolve("ü.dat");
        assertThatThrownBy(() -> Files.writeString(file, "x"))
                .isInstanceOf(FileSystemException.class)
                .hasMessageContaining("printable ASCII");
        assertThatThrownBy(() -> Files.createDirectory(dir.resolve("日本")))
                .isInstanceOf(FileSystemException.class)
                .hasMessageContaining("gsiftp://");
        try (Stream<Path> entries = Files.list(local(dir))) {
            assertThat(entries).isEmpty(); // neither ".dat" nor the directory itself under another name
        }
    }

    @Override
    protected void restartServer() throws IOException {
        server = server.restart();
    }
}
