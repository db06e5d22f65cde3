package org.ferry.mover.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.ServerCommandLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunks between two Ferry GSI servers as a service hands them out: each endpoint's access carries
 * its own sealed proxy (two identities), the trust comes from the access's extra roots alone (the
 * mover's own trust directory is empty, as when a user bootstrapped trust from MyProxy), and
 * {@code encrypt_data} makes every data channel PROT P. An expired credential stops the chunk at
 * once with {@code NO_CREDENTIALS}, without retries.
 */
class GsiChunkRunnerTest {

    @TempDir
    Path tmp;

    private FerryGsiServer first;
    private GridFtpServer second;
    private Path secondRoot;
    private GridFtpClient client;
    private TrustCache trust;
    private ExecutorService lanes;

    @BeforeEach
    void start() throws Exception {
        first = FerryGsiServer.start(tmp.resolve("first"), "Runner", Map.of("Alice", "alice", "Bob", "bob"));
        secondRoot = Files.createDirectories(tmp.resolve("second-root"));
        second = GridFtpServer.start(
                GridFtpServerConfig.loopback(secondRoot),
                first.pki()
                        .serverSecurity(first.pki().gridMapLine("Alice", "alice")
                                + first.pki().gridMapLine("Bob", "bob")));
        client = new GridFtpClient(Duration.ofSeconds(30));
        trust = new TrustCache(tmp.resolve("mover-has-no-cas"), tmp.resolve("trust-work"));
        lanes = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        lanes.shutdownNow();
        client.close();
        trust.close();
        if (second != null) {
            second.close();
        }
        first.close();
    }

    private EndpointAccess access(String name, int port, GsiCredential proxy) throws Exception {
        String context = "endpoint-credential:" + name;
        return new EndpointAccess(
                name,
                "gsiftp://localhost:" + port,
                null,
                ChunkRunnerTest.CIPHER.seal(PemFiles.credentialPem(proxy), context),
                context,
                null,
                EndpointSessions.encode(TrustRoots.read(first.pki().trustDirectory())));
    }

    @Test
    void anEncryptedChunkBetweenTwoIdentitiesArrivesOverPrivateChannels() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 12; i++) {
            byte[] data = new byte[5000 + 999 * i];
            random.nextBytes(data);
            Files.write(first.root().resolve("f" + i), data);
            files.add(new FileTransfer("/f" + i, "/f" + i, data.length));
        }
        byte[] big = new byte[18 << 20];
        random.nextBytes(big);
        Files.write(first.root().resolve("big"), big);
        files.add(new FileTransfer("/big", "/big", big.length));
        ChunkRequest chunk = new ChunkRequest(
                access("alice#first", first.port(), first.pki().proxy("Alice")),
                access("bob#second", second.port(), first.pki().proxy("Bob")),
                files,
                new ChunkTuning(2, 2, 4),
                true,
                ProtectionLevel.PRIVATE);
        Recording listener = new Recording();
        MoverFault fatal;
        List<String> commands;
        try (ServerCommandLog log = ServerCommandLog.open()) {
            fatal = new ChunkRunner(
                            new EndpointSessions(client, ChunkRunnerTest.CIPHER, trust, Clock.systemUTC()),
                            new RetryPolicy(2, List.of(0)),
                            lanes)
                    .run(chunk, listener);
            commands = log.commands();
        }
        assertThat(fatal).isNull();
        assertThat(listener.faults).isEmpty();
        for (FileTransfer file : files) {
            assertThat(Files.mismatch(
                            first.root().resolve(file.sourcePath().substring(1)),
                            secondRoot.resolve(file.destinationPath().substring(1))))
                    .as(file.sourcePath())
                    .isEqualTo(-1);
        }
        assertThat(commands).contains("PROT P").doesNotContain("PROT C");
        assertThat(commands).anyMatch(c -> c.startsWith("DCAU S /O=Grid/OU=Runner/CN=Bob"));
    }

    @Test
    void anExpiredCredentialStopsTheChunkAtOnceWithNoCredentials() throws Exception {
        Files.write(first.root().resolve("a"), new byte[] {1});
        GsiCredential proxy = first.pki().proxy("Alice");
        Clock afterExpiry = Clock.fixed(proxy.notAfter().plus(Duration.ofMinutes(1)), ZoneOffset.UTC);
        ChunkRequest chunk = new ChunkRequest(
                access("alice#first", first.port(), proxy),
                access("alice#second", second.port(), proxy),
                List.of(new FileTransfer("/a", "/a", 1), new FileTransfer("/a", "/b", 1)),
                new ChunkTuning(1, 1, 2),
                false,
                ProtectionLevel.CLEAR);
        Recording listener = new Recording();
        MoverFault fatal = new ChunkRunner(
                        new EndpointSessions(client, ChunkRunnerTest.CIPHER, trust, afterExpiry),
                        new RetryPolicy(3, List.of(0)),
                        lanes)
                .run(chunk, listener);
        assertThat(fatal.code()).isEqualTo(FaultCode.NO_CREDENTIALS);
        assertThat(fatal.description()).contains("alice#first", "expired at " + proxy.notAfter(), "activate");
        assertThat(listener.faults)
                .as("not a file's fault: no attempt of a file is spent")
                .isEmpty();
        assertThat(listener.sessions).isEmpty();
        assertThat(Instant.now()).isBefore(proxy.notAfter());
    }

    /** Records what the runner reports. */
    private static final class Recording implements ChunkListener {
        final List<GridFtpSession> sessions = new CopyOnWriteArrayList<>();
        final List<MoverFault> faults = new CopyOnWriteArrayList<>();

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
        public void onFileArrived(FileTransfer file, long size, String checksum) {}

        @Override
        public void onFault(
                FileTransfer file, MoverFault fault, int attempt, boolean willRetry, List<ByteRange> acknowledged) {
            faults.add(fault);
        }
    }
}
