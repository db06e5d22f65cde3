package org.ferry.mover.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FaultCode;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.mover.runner.RetryPolicy;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk messages carry what a mover needs to log in, secrets sealed (the Kafka broker never sees
 * one in clear), and the time the endpoints' credentials expire: a chunk that would outlive them
 * stops and says {@code NO_CREDENTIALS}. Against two real Ferry servers on loopback.
 */
class ChunkExecutorCredentialTest {

    private static final Authenticator ALICE = (u, p) -> u.equals("alice") && p.equals("s3cret-pw");
    private static final CredentialCipher CIPHER =
            CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[32]));

    @TempDir
    Path tmp;

    private Path sourceRoot;
    private Path destinationRoot;
    private GridFtpServer source;
    private GridFtpServer destination;
    private GridFtpClient client;
    private TrustCache trust;
    private ChunkExecutor executor;

    @BeforeEach
    void start() throws Exception {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        // at most 32 MiB/s: a 64 MiB file takes at least 2 s, longer than the credential lives here
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAuthenticator(ALICE)
                .withDataRateLimit(32L << 20));
        destination = GridFtpServer.start(
                GridFtpServerConfig.loopback(destinationRoot).withAuthenticator(ALICE));
        client = new GridFtpClient();
        trust = new TrustCache(tmp.resolve("no-cas"), tmp.resolve("trust-work"));
        executor = new ChunkExecutor(
                "test",
                new EndpointSessions(client, CIPHER, trust, Clock.systemUTC()),
                new RetryPolicy(2, List.of(0)),
                60_000);
    }

    @AfterEach
    void stop() {
        executor.close();
        client.close();
        trust.close();
        source.close();
        destination.close();
    }

    private static EndpointAccess access(GridFtpServer server, String name) {
        return new EndpointAccess(
                name,
                "ftp://127.0.0.1:" + server.port(),
                "alice",
                CIPHER.seal("s3cret-pw", "endpoint-password:" + name),
                "endpoint-password:" + name,
                null,
                Map.of());
    }

    private ChunkMessage chunk(List<FileTransfer> files, Long credentialsExpire) {
        return new ChunkMessage(
                MessageCodec.VERSION,
                7,
                UUID.randomUUID(),
                null,
                credentialsExpire,
                new ChunkRequest(
                        access(source, "alice#src"),
                        access(destination, "alice#dst"),
                        files,
                        new ChunkTuning(1, 1, 1),
                        false,
                        ProtectionLevel.CLEAR));
    }

    @Test
    void theMessageCarriesTheLoginSealedAndComesBackTheSame() {
        ChunkMessage message = chunk(List.of(new FileTransfer(1, "/a", "/b", 3, List.of(), 0)), 1234L);
        MessageCodec codec = new MessageCodec();
        byte[] json = codec.write(message);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .as("the password never travels in clear")
                .doesNotContain("s3cret-pw")
                .contains("\"v\":" + MessageCodec.VERSION);
        ChunkMessage read = codec.chunk(json);
        assertThat(read).isEqualTo(message);
        ChunkRequest request = read.request();
        assertThat(request.source()).isEqualTo(message.request().source());
        assertThat(request.dataProtection()).isEqualTo(ProtectionLevel.CLEAR);
        assertThat(read.request().source().toString())
                .doesNotContain(message.request().source().sealedSecret());
    }

    @Test
    void aChunkStopsBeforeItsCredentialExpiresAndSaysNoCredentials() throws Exception {
        byte[] small = "hello".getBytes(StandardCharsets.US_ASCII);
        Files.write(sourceRoot.resolve("small.txt"), small);
        Files.write(sourceRoot.resolve("big.bin"), new byte[64 << 20]);
        List<ResultMessage> results = new CopyOnWriteArrayList<>();

        // a credential good for the whole chunk: the files arrive
        executor.run(
                chunk(List.of(new FileTransfer(1, "/small.txt", "/small.txt", small.length, List.of(), 0)), null),
                results::add);
        assertThat(results).anyMatch(r -> r.type() == ResultMessage.Type.FILE_ARRIVED && r.fileId() == 1);
        assertThat(last(results).code()).isNull();

        // one that ends (less the safety margin) half a second from now, long before the big file is
        // through: the chunk stops, the file is not reported, and no attempt of it counts as a fault
        results.clear();
        long expires = System.currentTimeMillis() + EndpointSessions.EXPIRY_MARGIN.toMillis() + 500;
        executor.run(
                chunk(List.of(new FileTransfer(2, "/big.bin", "/big.bin", 64 << 20, List.of(), 0)), expires),
                results::add);
        ResultMessage done = last(results);
        assertThat(done.type()).isEqualTo(ResultMessage.Type.CHUNK_DONE);
        assertThat(done.code()).isEqualTo(FaultCode.NO_CREDENTIALS.name());
        assertThat(done.description()).contains("alice#src", "expired", "activate");
        assertThat(results)
                .noneMatch(r -> r.type() == ResultMessage.Type.FILE_ARRIVED)
                .noneMatch(r -> r.type() == ResultMessage.Type.FILE_FAULT);
    }

    private static ResultMessage last(List<ResultMessage> results) {
        return results.get(results.size() - 1);
    }
}
