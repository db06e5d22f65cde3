package org.ferry.mover.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.ChunkListener;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkRunner;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.mover.runner.MoverFault;
import org.ferry.mover.runner.RetryPolicy;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint with several GridFTP servers over the same storage (a logical endpoint): a session
 * fails over from a server that cannot be reached to the next one, a refusal does not fail over,
 * and a chunk whose server dies mid-file finishes on the other server.
 */
class EndpointSessionsFailoverTest {

    private static final Authenticator ALICE = (u, p) -> u.equals("alice") && p.equals("pw");
    private static final CredentialCipher CIPHER =
            CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[32]));

    @TempDir
    Path tmp;

    private Path sourceRoot;
    private Path destinationRoot;
    private final List<GridFtpServer> servers = new ArrayList<>();
    private GridFtpClient client;
    private TrustCache trust;
    private EndpointSessions sessions;
    private ExecutorService lanes;

    @BeforeEach
    void start() throws Exception {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        client = new GridFtpClient(Duration.ofSeconds(30));
        trust = new TrustCache(tmp.resolve("no-cas"), tmp.resolve("trust-work"));
        sessions = new EndpointSessions(client, CIPHER, trust, Clock.systemUTC());
        lanes = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        lanes.shutdownNow();
        servers.forEach(GridFtpServer::close);
        client.close();
        trust.close();
    }

    private GridFtpServer server(Path root, GridFtpServerConfig config) throws Exception {
        GridFtpServer server = GridFtpServer.start(config);
        servers.add(server);
        return server;
    }

    private static int deadPort() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private static EndpointAccess access(String name, int... ports) {
        List<EndpointAccess.Server> list = new ArrayList<>();
        for (int port : ports) {
            list.add(new EndpointAccess.Server("ftp://127.0.0.1:" + port, null));
        }
        String context = "endpoint-password:" + name;
        return new EndpointAccess(name, list, "alice", CIPHER.seal("pw", context), context, Map.of());
    }

    @Test
    void aServerThatCannotBeReachedFailsOverToTheNext() throws Exception {
        GridFtpServer up =
                server(sourceRoot, GridFtpServerConfig.loopback(sourceRoot).withAuthenticator(ALICE));
        EndpointSessions.Opened opened =
                sessions.open(access("alice#pair", deadPort(), up.port()), ProtectionLevel.CLEAR, 0);
        try (GridFtpSession session = opened.session()) {
            assertThat(opened.serverIndex()).isEqualTo(1);
            assertThat(session.list("/")).isEmpty();
        }
    }

    @Test
    void everyServerDownNamesThemAll() throws Exception {
        int first = deadPort();
        int second = deadPort();
        assertThatThrownBy(() -> sessions.open(access("alice#down", first, second), ProtectionLevel.CLEAR, 0))
                .hasMessageContaining("127.0.0.1:" + first)
                .hasMessageContaining("127.0.0.1:" + second);
    }

    @Test
    void aRefusalDoesNotFailOver() throws Exception {
        GridFtpServer refusing =
                server(sourceRoot, GridFtpServerConfig.loopback(sourceRoot).withAuthenticator((u, p) -> false));
        GridFtpServer up =
                server(sourceRoot, GridFtpServerConfig.loopback(sourceRoot).withAuthenticator(ALICE));
        assertThatThrownBy(() ->
                        sessions.open(access("alice#refusing", refusing.port(), up.port()), ProtectionLevel.CLEAR, 0))
                .isInstanceOf(GridFtpReplyException.class)
                .hasMessageContaining("530");
    }

    @Test
    void aChunkWhoseServerDiesMidFileFinishesOnTheOtherServer() throws Exception {
        byte[] data = new byte[48 << 20];
        new Random(17).nextBytes(data);
        Files.write(sourceRoot.resolve("big.bin"), data);
        // two servers over the same storage, each sending at most 16 MiB/s: the file is still
        // moving when the test kills the one the lane uses
        GridFtpServer first = server(
                sourceRoot,
                GridFtpServerConfig.loopback(sourceRoot)
                        .withAuthenticator(ALICE)
                        .withDataRateLimit(16L << 20));
        GridFtpServer second = server(
                sourceRoot,
                GridFtpServerConfig.loopback(sourceRoot)
                        .withAuthenticator(ALICE)
                        .withDataRateLimit(16L << 20));
        GridFtpServer destination = server(
                destinationRoot,
                GridFtpServerConfig.loopback(destinationRoot)
                        .withAuthenticator(ALICE)
                        .withMarkerInterval(Duration.ofMillis(100)));
        ChunkRequest chunk = new ChunkRequest(
                access("alice#pair", first.port(), second.port()),
                access("alice#dst", destination.port()),
                List.of(new FileTransfer("/big.bin", "/big.bin", data.length)),
                new ChunkTuning(1, 2, 1),
                true,
                ProtectionLevel.CLEAR);
        Recording listener = new Recording();
        Future<MoverFault> run = lanes.submit(
                () -> new ChunkRunner(sessions, new RetryPolicy(3, List.of(0)), lanes).run(chunk, listener));
        assertThat(listener.firstMarker.await(60, TimeUnit.SECONDS))
                .as("a restart marker")
                .isTrue();
        int used = listener.sessions.get(0).url().port();
        GridFtpServer dying = used == first.port() ? first : second;
        servers.remove(dying);
        dying.close();

        assertThat(run.get(120, TimeUnit.SECONDS)).isNull();
        assertThat(listener.faults).isNotEmpty();
        assertThat(listener.sessions.stream().map(s -> s.url().port()))
                .as("a later source session went to the other server")
                .contains(dying == first ? second.port() : first.port());
        assertThat(Files.mismatch(sourceRoot.resolve("big.bin"), destinationRoot.resolve("big.bin")))
                .isEqualTo(-1);
    }

    /** Records what the runner reports. */
    private static final class Recording implements ChunkListener {
        final List<GridFtpSession> sessions = new CopyOnWriteArrayList<>();
        final List<MoverFault> faults = new CopyOnWriteArrayList<>();
        final CountDownLatch firstMarker = new CountDownLatch(1);

        @Override
        public boolean isStopped() {
            return false;
        }

        @Override
        public void sessionOpened(GridFtpSession session) {
            sessions.add(session);
        }

        @Override
        public void sessionClosed(GridFtpSession session) {}

        @Override
        public void onBytes(long delta) {}

        @Override
        public void onRestartMarker(FileTransfer file, List<ByteRange> acknowledged) {
            firstMarker.countDown();
        }

        @Override
        public void onFileArrived(FileTransfer file, long size, String checksum) {}

        @Override
        public void onFault(
                FileTransfer file, MoverFault fault, int attempt, boolean willRetry, List<ByteRange> acknowledged) {
            faults.add(fault);
        }
    }
}
