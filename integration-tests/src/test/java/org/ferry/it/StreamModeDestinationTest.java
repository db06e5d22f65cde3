package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.it.infra.PlainFtpServer;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A destination that speaks only stream mode: a real plain FTP server (pyftpdlib from PyPI, which
 * refuses MODE E and lists no PARALLEL in FEAT) behind a fault-injecting proxy, a Ferry GridFTP
 * server as the source (at most 16 MiB/s), the embedded ferry-server. Ferry moves in stream mode
 * with concurrency only; a data connection cut mid-file resumes from the destination's size with
 * {@code REST n} instead of byte 0. Each test asserts the task's final state and byte-identical
 * files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamModeDestinationTest {

    private static final long RATE = 16L << 20;

    private Path sourceRoot;
    private Path destinationRoot;
    private GridFtpServer source;
    private PlainFtpServer destination;
    private FtpFaultProxy proxy;
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        destination = PlainFtpServer.start(destinationRoot, work.resolve("pyftpdlib"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAnonymousAllowed(true)
                .withDataRateLimit(RATE));
        proxy = new FtpFaultProxy(destination.port());
        ferry = new FaultHarness(work, List.of("--ferry.transfer.retry-initial-backoff=500ms")).start();
        ferry.endpoint("admin#src", source.port());
        ferry.endpoint("admin#plain", proxy.port());
    }

    @AfterAll
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (source != null) {
            source.close();
        }
        if (destination != null) {
            destination.close();
        }
    }

    @Test
    void manySmallFilesArriveInStreamMode() throws Exception {
        Path tree = Files.createDirectories(sourceRoot.resolve("small/sub"));
        Random random = new Random(31);
        for (int i = 0; i < 150; i++) {
            byte[] data = new byte[random.nextInt(20_000)];
            random.nextBytes(data);
            Files.write((i % 3 == 0 ? tree : tree.getParent()).resolve("f" + i), data);
        }
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#plain", "/small", "/small"));
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(150);
        FaultHarness.assertIdentical(sourceRoot.resolve("small"), destinationRoot.resolve("small"));
        assertThat(destination.output())
                .as("Ferry asked for MODE E and was refused")
                .contains("MODE E");
    }

    @Test
    void theSourceSendsOnlyOnceThePlainDestinationAnsweredStor() throws Exception {
        // pyftpdlib takes a data connection that arrives, sends and closes before it read STOR for
        // an empty transfer and then waits for another: the task hung for the reply timeout (two
        // minutes) before it retried. The proxy holds each 150 to a STOR up to two seconds unless
        // the source connects first, which it must not: the source is told RETR after the 150.
        Path tree = Files.createDirectories(sourceRoot.resolve("ordered"));
        for (int i = 0; i < 3; i++) {
            Files.write(tree.resolve("f" + i), new byte[] {(byte) i, 1, 2, 3});
        }
        int before = proxy.dataBeforePreliminary();
        proxy.holdPreliminaryReplies(Duration.ofSeconds(2));
        try {
            String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#plain", "/ordered", "/ordered"));
            JsonNode task = ferry.awaitEnd(taskId);
            assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
            FaultHarness.assertIdentical(tree, destinationRoot.resolve("ordered"));
        } finally {
            proxy.holdPreliminaryReplies(Duration.ZERO);
        }
        assertThat(proxy.dataBeforePreliminary() - before)
                .as("data connections that reached the destination before its 150 to STOR")
                .isZero();
    }

    @Test
    void aDataConnectionCutMidFileResumesFromTheDestinationsSize() throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve("cut"));
        byte[] data = new byte[64 << 20];
        new Random(37).nextBytes(data);
        Files.write(root.resolve("big.bin"), data);
        Path copy = destinationRoot.resolve("cut/big.bin");
        long before = proxy.dataBytes();
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#plain", "/cut", "/cut"));
        FaultHarness.awaitTrue("16 MiB at the destination", () -> FaultHarness.arrived(copy) > (16 << 20));
        proxy.cutDataConnections();
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(proxy.cuts()).isPositive();
        assertThat(ferry.events(taskId)).containsAnyOf("CONNECTION_BROKEN", "ENDPOINT_ERROR"); // 426 or a reset
        FaultHarness.assertIdentical(root, destinationRoot.resolve("cut"));
        // sent again from byte 0, the file would have crossed the proxy 16 MiB more than its size
        assertThat(proxy.dataBytes() - before)
                .as("bytes through the proxy: the retry resumed (REST n) instead of starting over")
                .isLessThan(data.length + (8L << 20));
    }
}
