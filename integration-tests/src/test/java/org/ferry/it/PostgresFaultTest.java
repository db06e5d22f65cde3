package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.it.infra.PostgresServer;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Fault tests of the embedded mover on a real PostgreSQL server: ferry-server killed (kill -9)
 * mid-task at each sync level, PostgreSQL restarted mid-task, data connections cut mid-file by a
 * fault-injecting proxy, the destination down for longer than a minute, and a cancel during a
 * retry back-off. Every test asserts the task's final state and that every destination file is
 * byte-identical to its source. The source sends at most 16 MiB/s, so the transfers are still
 * running when a test strikes; markers come every 0.2 s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresFaultTest {

    private static final long RATE = 16L << 20;
    private static final Duration END = Duration.ofSeconds(180);

    private Path work;
    private Path sourceRoot;
    private Path destinationRoot;
    private PostgresServer postgres;
    private GridFtpServer source;
    private GridFtpServer destination;
    private GridFtpServerConfig destinationConfig;
    private FtpFaultProxy proxy;
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        postgres = PostgresServer.start(work.resolve("postgres"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200))
                .withDataRateLimit(RATE));
        destinationConfig = GridFtpServerConfig.loopback(destinationRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200));
        destination = GridFtpServer.start(destinationConfig);
        destinationConfig = destinationConfig.withPort(destination.port());
        proxy = new FtpFaultProxy(destination.port());
        ferry = new FaultHarness(
                        work,
                        List.of(
                                "--spring.datasource.url=" + postgres.jdbcUrl(),
                                "--ferry.transfer.retry-initial-backoff=500ms",
                                "--ferry.transfer.retry-max-backoff=3s",
                                "--ferry.transfer.progress-interval-seconds=1"))
                .start();
        ferry.endpoint("admin#src", source.port());
        ferry.endpoint("admin#dst", proxy.port());
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
        if (postgres != null) {
            postgres.close();
        }
    }

    /** Three files of 12 MiB and 30 small ones, random bytes. */
    private Path tree(String name, long seed) throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        Random random = new Random(seed);
        for (int i = 0; i < 3; i++) {
            byte[] big = new byte[12 << 20];
            random.nextBytes(big);
            Files.write(root.resolve("big-" + i + ".bin"), big);
        }
        Files.createDirectories(root.resolve("small"));
        for (int i = 0; i < 30; i++) {
            byte[] small = new byte[1000 + random.nextInt(20_000)];
            random.nextBytes(small);
            Files.write(root.resolve("small/s" + i + ".dat"), small);
        }
        return root;
    }

    /** True once some file of the copy is there but shorter than its source: a transfer in flight. */
    private boolean partialFileAt(Path copy, Path original) {
        for (int i = 0; i < 3; i++) {
            long there = FaultHarness.size(copy.resolve("big-" + i + ".bin"));
            if (there > 0 && there < FaultHarness.size(original.resolve("big-" + i + ".bin"))) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest(name = "sync level {0}")
    @ValueSource(strings = {"none", "exists", "size", "mtime", "checksum"})
    void serverKilledMidTaskResumesWithoutTakingAPartialFileAsDone(String level) throws Exception {
        Path original = tree("kill-" + level, level.hashCode());
        Path copy = destinationRoot.resolve("kill-" + level);
        Map<String, Object> transfer =
                FaultHarness.recursive("admin#src", "admin#dst", "/kill-" + level, "/kill-" + level);
        if (!level.equals("none")) {
            transfer.put("sync_level", level);
        }
        String taskId = ferry.submit(transfer);
        FaultHarness.awaitTrue("a partial destination file", () -> partialFileAt(copy, original), END);
        ferry.kill();
        assertThat(partialFileAt(copy, original))
                .as("a partial file left by the killed server")
                .isTrue();
        ferry.start();
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(33);
        FaultHarness.assertIdentical(original, copy);
    }

    @Test
    void postgresRestartedMidTask() throws Exception {
        Path original = tree("pg-restart", 41);
        Path copy = destinationRoot.resolve("pg-restart");
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/pg-restart", "/pg-restart"));
        FaultHarness.awaitTrue("a partial destination file", () -> partialFileAt(copy, original), END);
        postgres.stop();
        Thread.sleep(3000); // the movers go on; their results wait for the database
        postgres.start();
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(original, copy);
    }

    @Test
    void dataConnectionsCutMidFileResumeFromRestartMarkers() throws Exception {
        Path original = Files.createDirectories(sourceRoot.resolve("cut"));
        byte[] data = new byte[64 << 20];
        new Random(3).nextBytes(data);
        Files.write(original.resolve("cut.bin"), data);
        Path copy = destinationRoot.resolve("cut");
        long carriedBefore = proxy.dataBytes(); // earlier tests' transfers went through the proxy too
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/cut", "/cut"));
        for (int cut = 1; cut <= 2; cut++) {
            long before = proxy.dataBytes();
            FaultHarness.awaitTrue("data flowing through the proxy", () -> proxy.dataBytes() > before + (8 << 20), END);
            proxy.cutDataConnections();
        }
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("faults").asLong()).isPositive();
        assertThat(proxy.cuts()).isPositive();
        FaultHarness.assertIdentical(original, copy);
        // resumed, not started again: the proxy carried less than the file twice over
        assertThat(proxy.dataBytes() - carriedBefore).isLessThan(2L * data.length);
    }

    @Test
    void destinationDownForMoreThanAMinuteThenTheTaskGoesOn() throws Exception {
        Path original = tree("down", 77);
        Path copy = destinationRoot.resolve("down");
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/down", "/down"));
        FaultHarness.awaitTrue("a partial destination file", () -> partialFileAt(copy, original), END);
        destination.close();
        long downSince = System.nanoTime();
        try {
            awaitRetriesWhileDown(taskId, downSince);
        } finally {
            destination = GridFtpServer.start(destinationConfig);
        }
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("is_ok").isNull()).isTrue(); // Globus: null once the task ended
        FaultHarness.assertIdentical(original, copy);
    }

    private void awaitRetriesWhileDown(String taskId, long downSince) throws Exception {
        JsonNode waiting = ferry.await(
                taskId, t -> !t.get("is_ok").asBoolean() && t.get("faults").asLong() > 0, Duration.ofSeconds(60));
        assertThat(waiting.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(waiting.get("nice_status").asString()).isIn("CONNECT_FAILED", "CONNECTION_BROKEN", "TIMEOUT");
        long faultsBefore;
        // stays ACTIVE, retrying, for more than a minute
        while (System.nanoTime() - downSince < Duration.ofSeconds(65).toNanos()) {
            Thread.sleep(1000);
            assertThat(ferry.task(taskId).get("status").asString()).isEqualTo("ACTIVE");
        }
        faultsBefore = ferry.task(taskId).get("faults").asLong();
        assertThat(faultsBefore).as("retried while down").isGreaterThan(1);
    }

    @Test
    void cancelDuringARetryBackOffEndsTheTaskAtOnce() throws Exception {
        tree("cancel", 5);
        int nothing = org.ferry.it.infra.FreePorts.pick();
        ferry.endpoint("admin#nowhere", nothing);
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#nowhere", "/cancel", "/cancel"));
        JsonNode backingOff = ferry.await(
                taskId, t -> "CONNECT_FAILED".equals(t.get("nice_status").asString()), Duration.ofSeconds(60));
        assertThat(backingOff.get("is_ok").asBoolean()).isFalse();
        assertThat(backingOff.get("status").asString()).isEqualTo("ACTIVE");
        ferry.api().post("/v0.10/task/" + taskId + "/cancel", Map.of());
        JsonNode task = ferry.task(taskId);
        assertThat(task.get("status").asString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("CANCELED");
        long faults = task.get("faults").asLong();
        Thread.sleep(4000); // longer than the longest back-off: no attempt follows the cancel
        assertThat(ferry.task(taskId).get("faults").asLong()).isEqualTo(faults);
        assertThat(ferry.events(taskId).get(0)).isEqualTo("CANCELED");
    }
}
