package org.ferry.mover.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link FileSystemContract} plus what only a remote file system has: a server that restarts under
 * an open channel, and space it does not report. A subclass restarts its server on the same port;
 * its file system must have a reply timeout well under {@link #NO_HANG}.
 */
public abstract class RemoteFileSystemContract extends FileSystemContract {

    /** How long a case waits at most for an operation that must fail rather than hang. */
    protected static final Duration NO_HANG = Duration.ofSeconds(60);

    /**
     * @param more further settings (user, password, GSI)
     * @return an {@code env} map that makes a few MiB span many windows and write buffers, with a
     *     reply timeout well under {@link #NO_HANG}
     */
    protected static Map<String, Object> smallWindows(Map<String, Object> more) {
        Map<String, Object> env = new HashMap<>(more);
        env.put(GridFtpFileSystemProvider.READ_WINDOW_BYTES, 256 << 10);
        env.put(GridFtpFileSystemProvider.WRITE_BUFFER_BYTES, 128 << 10);
        // short, so that a session to a server that went away without closing its connection (the
        // in-JVM ferry-gridftp's close can leave one open) costs the restart case little
        env.put(GridFtpFileSystemProvider.REPLY_TIMEOUT_SECONDS, 8);
        return env;
    }

    /**
     * Stops the server (its sessions die with it, as in a crash) and starts it again on the same
     * port, serving the same files; returns once it listens.
     */
    protected abstract void restartServer() throws Exception;

    @Test
    void aChannelOpenAcrossAServerRestartFailsClearlyAndTheFileSystemRecovers() throws Exception {
        byte[] data = bytes(1_000_000, 10);
        Path file = Files.write(dir.resolve("restart.bin"), data);
        SeekableByteChannel channel = Files.newByteChannel(file);
        ByteBuffer first = ByteBuffer.allocate(1_000);
        assertThat(channel.read(first)).isEqualTo(1_000);
        restartServer();
        assertTimeoutPreemptively(NO_HANG, () -> {
            channel.position(900_000);
            assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(1_000)))
                    .isInstanceOf(IOException.class)
                    .isNotInstanceOf(ClosedChannelException.class)
                    .hasMessageContaining(file.toString());
            // broken for good: later reads say so too, instead of touching a dead session
            assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(10)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("failed earlier");
        });
        channel.close();
        assertTimeoutPreemptively(
                NO_HANG, () -> assertThat(Files.readAllBytes(file)).isEqualTo(data));
    }

    @Test
    void spaceIsUnknownAndSaysWhy() throws IOException {
        FileStore store = Files.getFileStore(dir);
        assertThat(store.type()).isEqualTo(dir.getFileSystem().provider().getScheme());
        assertThatThrownBy(store::getUsableSpace)
                .isInstanceOf(FileSystemException.class)
                .hasMessageContaining("space unknown");
    }
}
