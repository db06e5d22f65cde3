package org.ferry.mover.server.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.command.SiteSetDiskStackHandler;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.popen.PopenPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multicast between real ferry-gridftp servers on 127.0.0.1: the client sends a file once to the
 * first of four destinations with the tree of the other three ({@code SITE SETDISKSTACK
 * file,gridftp_multicast:urls=...;cc=2}: d1 forwards to d2 and d3, d2 to d4); a leaf (d4) or an
 * inner server (d2) is stopped in the middle of the file and started again on its port, and its
 * branch is resumed from its parent's copy.
 */
class MulticastServerTest {

    private static final Authenticator ALICE = (u, p) -> u.equals("alice") && p.equals("pw");

    /** d4 takes at most this much per second before it is stopped: the stop lands mid-file. */
    private static final long SLOW_BYTES_PER_SECOND = 8L << 20;

    @TempDir
    Path tmp;

    private final List<GridFtpServer> servers = new ArrayList<>();
    private final Map<Integer, AtomicLong> opens = new ConcurrentHashMap<>();
    private GridFtpClient forwardingClient;
    private GridFtpClient client;
    private MulticastPolicy policy;

    @BeforeEach
    void clients() {
        forwardingClient = new GridFtpClient(Duration.ofSeconds(60));
        client = new GridFtpClient(Duration.ofSeconds(120));
        // 1 MiB windows: many windows per file; a failed branch is retried every 50 ms for a minute
        policy = new MulticastPolicy(
                url -> {
                    opens.computeIfAbsent(url.port(), p -> new AtomicLong()).incrementAndGet();
                    return forwardingClient.open(url);
                },
                1L << 20,
                Duration.ofMinutes(1),
                Duration.ofMillis(50));
    }

    @AfterEach
    void stop() {
        servers.forEach(GridFtpServer::close);
        client.close();
        forwardingClient.close();
    }

    private GridFtpServer start(Path root, int port, long rateLimit) throws IOException {
        GridFtpServerConfig config = GridFtpServerConfig.loopback(root)
                .withAuthenticator(ALICE)
                .withPort(port)
                .withMarkerInterval(Duration.ofMillis(100))
                .withDataRateLimit(rateLimit);
        GridFtpServer server = GridFtpServer.start(
                config,
                null,
                DtpFactory.local(),
                PopenPolicy.disabled(),
                commands -> commands.with(List.of(new SiteSetDiskStackHandler(PopenPolicy.disabled(), policy))));
        servers.add(server);
        return server;
    }

    private static String url(GridFtpServer server) {
        return "ftp://alice:pw@127.0.0.1:" + server.port() + "/";
    }

    @Test
    void oneFileReachesFourDestinationsAndAStoppedLeafResumesFromItsMarkers() throws Exception {
        List<Integer> opened = stopMidFile(3); // d4, below d2
        assertThat(opened.get(3)).as("d4's sessions").isGreaterThanOrEqualTo(2);
        assertThat(opened.get(1)).as("d2's sessions").isEqualTo(1);
        assertThat(opened.get(2)).as("d3's sessions").isEqualTo(1);
    }

    @Test
    void aStoppedInnerServerGetsTheFileAgainAndPassesItOn() throws Exception {
        List<Integer> opened = stopMidFile(1); // d2, which forwards to d4
        assertThat(opened.get(1)).as("d2's sessions").isGreaterThanOrEqualTo(2);
        assertThat(opened.get(3)).as("d4's sessions").isGreaterThanOrEqualTo(2);
        assertThat(opened.get(2)).as("d3's sessions").isEqualTo(1);
    }

    /**
     * Sends a 48 MiB file once to d1 with the tree d2, d3, d4 ({@code cc=2}: d1 to d2 and d3, d2 to
     * d4), stops destination {@code stopped} (slowed to 8 MiB/s so that it is mid-file) once it
     * holds 4 MiB, starts it again on its port, and checks every copy and the bytes sent.
     *
     * @param stopped 1..3, the destination to stop (0 is d1)
     * @return how often each destination's session was opened by a forwarding server
     */
    private List<Integer> stopMidFile(int stopped) throws Exception {
        long size = 48L << 20;
        Path file = tmp.resolve("source.bin");
        String expected = writeRandom(file, size, 7);
        List<Path> roots = new ArrayList<>();
        List<GridFtpServer> destinations = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            roots.add(Files.createDirectory(tmp.resolve("d" + (i + 1))));
            destinations.add(start(roots.get(i), 0, i == stopped ? SLOW_BYTES_PER_SECOND : 0));
        }
        List<Integer> ports = destinations.stream().map(GridFtpServer::port).toList();
        MulticastTree tree = new MulticastTree(
                List.of(url(destinations.get(1)), url(destinations.get(2)), url(destinations.get(3))), 2, 2);
        assertThat(tree.branches())
                .extracting(
                        MulticastTree.Branch::url,
                        b -> b.below() == null ? List.of() : b.below().urls())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                url(destinations.get(1)), List.of(url(destinations.get(3)))),
                        org.assertj.core.groups.Tuple.tuple(url(destinations.get(2)), List.of()));

        AtomicLong sent = new AtomicLong();
        CompletableFuture<Long> upload = CompletableFuture.supplyAsync(() -> {
            try (GridFtpSession session = client.open(GridFtpUrl.parse(url(destinations.get(0))))) {
                session.setDiskStack(tree.diskStack());
                return session.upload(file, "/big.bin", TransferOptions.extendedBlock(4), new TransferListener() {
                    @Override
                    public void onProgress(long bytes) {
                        sent.set(bytes);
                    }
                });
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });

        // the stopped server holds part of the file, not all of it: stop it there
        Path partialCopy = roots.get(stopped).resolve("big.bin");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(partialCopy) && Files.size(partialCopy) >= (4L << 20))) {
            assertThat(System.nanoTime()).as("the server to stop got 4 MiB").isLessThan(deadline);
            Thread.sleep(5);
        }
        GridFtpServer victim = destinations.get(stopped);
        victim.close();
        servers.remove(victim);
        assertThat(upload).isNotDone(); // 226 waits for every destination
        assertThat(Files.size(partialCopy)).isLessThan(size);
        start(roots.get(stopped), ports.get(stopped), 0); // the same server again, at full speed

        long bytes = upload.get(2, TimeUnit.MINUTES);
        assertThat(bytes).isEqualTo(size);
        assertThat(sent.get()).as("bytes read at the source and sent").isEqualTo(size);
        for (Path root : roots) {
            Path copy = root.resolve("big.bin");
            assertThat(Files.size(copy)).as(copy.toString()).isEqualTo(size);
            assertThat(md5(copy)).as(copy.toString()).isEqualTo(expected);
        }
        return ports.stream()
                .map(p -> opens.containsKey(p) ? (int) opens.get(p).get() : 0)
                .toList();
    }

    @Test
    void aDestinationThatStaysDownFailsTheTransferNamingIt() throws Exception {
        Path file = tmp.resolve("small.bin");
        writeRandom(file, 3L << 20, 3);
        GridFtpServer d1 = start(Files.createDirectory(tmp.resolve("a")), 0, 0);
        GridFtpServer gone = start(Files.createDirectory(tmp.resolve("b")), 0, 0);
        String goneUrl = url(gone);
        gone.close();
        servers.remove(gone);
        policy = new MulticastPolicy(policy.sessions(), 1L << 20, Duration.ofMillis(300), Duration.ofMillis(50));
        servers.remove(d1);
        d1.close();
        d1 = start(tmp.resolve("a"), 0, 0);
        MulticastTree tree = new MulticastTree(List.of(goneUrl), 2, 1);
        try (GridFtpSession session = client.open(GridFtpUrl.parse(url(d1)))) {
            session.setDiskStack(tree.diskStack());
            assertThatThrownBy(() ->
                            session.upload(file, "/small.bin", TransferOptions.extendedBlock(2), TransferListener.NONE))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("451 Multicast: " + GridFtpUrl.parse(goneUrl))
                    .hasMessageNotContaining("pw");
        }
        // the file is complete on the server that got it
        assertThat(Files.mismatch(file, tmp.resolve("a/small.bin"))).isEqualTo(-1);
    }

    @Test
    void aServerWithoutMulticastRefusesTheDriverByName() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("plain"));
        GridFtpServer plain =
                GridFtpServer.start(GridFtpServerConfig.loopback(root).withAuthenticator(ALICE));
        servers.add(plain);
        MulticastTree tree = new MulticastTree(List.of("ftp://127.0.0.1:1/"), 2, 1);
        try (GridFtpSession session = client.open(GridFtpUrl.parse(url(plain)))) {
            assertThatThrownBy(() -> session.setDiskStack(tree.diskStack()))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("500")
                    .hasMessageContaining("gridftp_multicast");
        }
    }

    private static String writeRandom(Path file, long size, long seed) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        Random random = new Random(seed);
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += chunk.length) {
                random.nextBytes(chunk);
                out.write(chunk);
                md5.update(chunk);
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static String md5(Path file) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        try (var in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 20];
            for (int n; (n = in.read(buffer)) > 0; ) {
                md5.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }
}
