package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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

    /**
     * The pool's bound, the file system's identity, and what closing it does, on a file system of
     * its own ({@code localhost}: another key than the class's {@code 127.0.0.1}).
     */
    @Test
    void sessionsAreBoundedPerFileSystemAndCloseWithIt() throws Exception {
        Path file = Files.write(dir.resolve("bound.bin"), new byte[100_000]);
        URI uri = URI.create("ftp://alice@localhost:" + server.port() + "/");
        FileSystem bounded = FileSystems.newFileSystem(
                uri,
                Map.of(
                        "password",
                        "pw",
                        GridFtpFileSystemProvider.MAX_SESSIONS,
                        2,
                        GridFtpFileSystemProvider.REPLY_TIMEOUT_SECONDS,
                        1));
        try {
            assertThatThrownBy(() -> FileSystems.newFileSystem(uri, Map.of()))
                    .isInstanceOf(FileSystemAlreadyExistsException.class);
            assertThat(Path.of(uri.resolve("/x"))).isEqualTo(bounded.getPath("/x"));
            Path there = bounded.getPath(file.toString());
            SeekableByteChannel one = Files.newByteChannel(there);
            SeekableByteChannel two = Files.newByteChannel(there);
            // both sessions held: a third waits its reply timeout for one, then says so
            assertThatThrownBy(() -> Files.newByteChannel(there))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("all 2 sessions");
            one.close();
            try (SeekableByteChannel three = Files.newByteChannel(there)) {
                assertThat(three.read(ByteBuffer.allocate(10))).isEqualTo(10);
            }
            bounded.close();
            assertThat(two.isOpen()).isFalse();
            assertThatThrownBy(() -> two.read(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> Files.size(there)).isInstanceOf(ClosedFileSystemException.class);
            // the provider forgot it: the URI makes a new one, with the environment's defaults
            Path again = Path.of(uri.resolve(file.toString()));
            assertThat(again.getFileSystem()).isNotSameAs(bounded);
            again.getFileSystem().close();
        } finally {
            bounded.close();
        }
    }

    @Override
    protected void restartServer() throws IOException {
        server.close();
        server = GridFtpServer.start(config);
    }
}
