package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DataChannels} over real loopback sockets: stream mode and MODE E, bytes compared. */
class DataChannelsLoopbackTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int SIZE = 50 << 20;

    private static EventLoopGroup group;

    @TempDir
    static Path dir;

    private static Path source;

    @BeforeAll
    static void setUp() throws IOException {
        group = new MultiThreadIoEventLoopGroup(4, NioIoHandler.newFactory());
        source = dir.resolve("source.bin");
        byte[] data = new byte[SIZE];
        new Random(42).nextBytes(data);
        Files.write(source, data);
    }

    @AfterAll
    static void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private long transfer(DataChannels channels, boolean modeE, int parallelism, boolean senderListens, Path target)
            throws Exception {
        AtomicLong progress = new AtomicLong();
        try (PassiveListener listener = channels.listen(LOOPBACK);
                FileChannel in = FileChannel.open(source);
                FileChannel out = FileChannel.open(
                        target,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            DataEndpoint passive = new DataEndpoint.Passive(listener);
            DataEndpoint active = new DataEndpoint.Active(listener.address());
            long start = System.nanoTime();
            var received =
                    channels.receive(DataSink.toFile(out, 0), senderListens ? active : passive, modeE, progress::set);
            var sent = channels.send(
                    DataSource.ofWholeFile(in), senderListens ? passive : active, modeE, parallelism, null);
            long bytes = received.get(60, TimeUnit.SECONDS);
            assertThat(sent.get(60, TimeUnit.SECONDS)).isEqualTo(SIZE);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "%s p=%d: %.0f MiB/s%n", modeE ? "MODE E" : "stream", parallelism, SIZE / 1048576.0 / seconds);
            assertThat(progress.get()).isEqualTo(SIZE);
            return bytes;
        }
    }

    @Test
    void modeEWithFourConnections() throws Exception {
        Path target = dir.resolve("modee.bin");
        assertThat(transfer(new DataChannels(group), true, 4, false, target)).isEqualTo(SIZE);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void modeEWithFourConnectionsByZeroCopy() throws Exception {
        // loopback peers get copies (ModeESender); this view keeps the sendfile path under test
        Path target = dir.resolve("modee-zero-copy.bin");
        assertThat(transfer(new DataChannels(group).zeroCopyForLocalPeers(), true, 4, false, target))
                .isEqualTo(SIZE);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void modeEWithOddBlockSizeAndOneConnection() throws Exception {
        Path target = dir.resolve("modee1.bin");
        assertThat(transfer(new DataChannels(group, 100_003), true, 1, false, target))
                .isEqualTo(SIZE);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void streamModeReceiverListens() throws Exception {
        Path target = dir.resolve("stream.bin");
        assertThat(transfer(new DataChannels(group), false, 1, false, target)).isEqualTo(SIZE);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void streamModeSenderListens() throws Exception {
        Path target = dir.resolve("stream2.bin");
        assertThat(transfer(new DataChannels(group), false, 1, true, target)).isEqualTo(SIZE);
        assertThat(Files.mismatch(source, target)).isEqualTo(-1);
    }

    @Test
    void inMemorySourceAndSinkInModeE() throws Exception {
        DataChannels channels = new DataChannels(group, 7);
        byte[] listing = "Type=file;Size=1; a b\r\nType=dir; c\r\n".getBytes();
        try (PassiveListener listener = channels.listen(LOOPBACK)) {
            DataSink.MemorySink sink = DataSink.toMemory();
            // the sender connects before the receiver is set up: the listener queues the connection
            var sent = channels.send(
                    DataSource.ofBytes(listing), new DataEndpoint.Active(listener.address()), true, 1, null);
            NettyPassiveListener queue = (NettyPassiveListener) listener;
            awaitTrue(() -> queue.waitingConnections() == 1, "the sender's connection queued");
            var received = channels.receive(sink, new DataEndpoint.Passive(listener), true, null);
            assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(listing.length);
            assertThat(sent.get(10, TimeUnit.SECONDS)).isEqualTo(listing.length);
            assertThat(sink.toByteArray()).isEqualTo(listing);
        }
    }

    @Test
    void peerClosingBeforeEodFailsTheReceive() throws Exception {
        DataChannels channels = new DataChannels(group);
        try (PassiveListener listener = channels.listen(LOOPBACK)) {
            var received = channels.receive(DataSink.toMemory(), new DataEndpoint.Passive(listener), true, null);
            try (Socket socket = new Socket(LOOPBACK, listener.address().getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3});
                out.flush();
            }
            assertThatThrownBy(() -> received.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IOException.class);
        }
    }

    @Test
    void idleTransfersFail() throws Exception {
        DataChannels channels =
                new DataChannels(group, DataChannels.DEFAULT_BLOCK_SIZE_BYTES, java.time.Duration.ofMillis(200));
        try (PassiveListener listener = channels.listen(LOOPBACK)) {
            // nobody connects
            var received = channels.receive(DataSink.toMemory(), new DataEndpoint.Passive(listener), true, null);
            assertThatThrownBy(() -> received.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.net.SocketTimeoutException.class);
            // a peer connects and stalls mid-block
            var stalled = channels.receive(DataSink.toMemory(), new DataEndpoint.Passive(listener), true, null);
            try (Socket socket = new Socket(LOOPBACK, listener.address().getPort())) {
                socket.getOutputStream().write(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 1});
                assertThatThrownBy(() -> stalled.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(java.net.SocketTimeoutException.class);
            }
        }
    }

    @Test
    void cancellingTheFutureClosesTheConnections() throws Exception {
        DataChannels channels = new DataChannels(group);
        try (PassiveListener listener = channels.listen(LOOPBACK)) {
            DataSink.MemorySink sink = DataSink.toMemory();
            var received = channels.receive(sink, new DataEndpoint.Passive(listener), false, null);
            try (Socket socket = new Socket(LOOPBACK, listener.address().getPort())) {
                socket.getOutputStream().write(1);
                // cancel once the transfer has the connection: one still in the accept queue would
                // be reset with the listener, where this test expects an orderly close
                awaitTrue(() -> sink.toByteArray().length == 1, "the byte received");
                received.cancel(false);
                socket.setSoTimeout(5000);
                assertThat(socket.getInputStream().read()).isEqualTo(-1); // closed by us
            }
        }
    }

    @Test
    void listenWorksFromAnEventLoopThread() throws Exception {
        DataChannels channels = new DataChannels(group);
        for (int i = 0; i < 8; i++) { // hit every loop of the group, including the one binding
            PassiveListener listener =
                    group.next().submit(() -> channels.listen(LOOPBACK)).get(5, TimeUnit.SECONDS);
            assertThat(listener.address().getPort()).isPositive();
            listener.close();
        }
    }

    @Test
    void modeEReceiveMustListen() {
        DataChannels channels = new DataChannels(group);
        var received = channels.receive(
                DataSink.toMemory(), new DataEndpoint.Active(new java.net.InetSocketAddress(LOOPBACK, 9)), true, null);
        assertThatThrownBy(() -> received.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
    }

    @Test
    void connectRefusedFailsTheSend() throws Exception {
        DataChannels channels = new DataChannels(group);
        // A port bound but never listened on refuses connections (RST) for as long as it is held.
        // A port merely freed again is not closed for sure: another process may listen on it by
        // then, or the kernel may give one of our connections that very port as its source port
        // (a TCP self-connect), and then the send succeeds.
        try (Socket bound = new Socket()) {
            bound.bind(new java.net.InetSocketAddress(LOOPBACK, 0));
            var sent = channels.send(
                    DataSource.ofBytes(new byte[10]),
                    new DataEndpoint.Active((java.net.InetSocketAddress) bound.getLocalSocketAddress()),
                    true,
                    2,
                    null);
            assertThatThrownBy(() -> sent.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
        }
    }

    @Test
    void socketBuffersApplyToAcceptedConnections() throws Exception {
        DataChannels channels = new DataChannels(group).withSocketBuffers(0, 1 << 20);
        var accepted = new java.util.concurrent.CompletableFuture<io.netty.channel.Channel>();
        try (PassiveListener listener = channels.listen(LOOPBACK);
                java.net.Socket socket =
                        new java.net.Socket(LOOPBACK, listener.address().getPort())) {
            ((NettyPassiveListener) listener).attach(accepted::complete, () -> false);
            io.netty.channel.Channel channel = accepted.get(5, TimeUnit.SECONDS);
            // Linux reports twice the requested size; the default (tcp_rmem) is far smaller
            assertThat(channel.config().getOption(io.netty.channel.ChannelOption.SO_RCVBUF))
                    .isGreaterThanOrEqualTo(1 << 20);
            channel.close();
        }
        assertThatThrownBy(() -> channels.withSocketBuffers(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Waits for a condition the test's own actions make true; fails after 10 s. */
    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.onSpinWait();
            Thread.sleep(1);
        }
    }
}
