package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.ferry.it.infra.ContainerFaults;
import org.ferry.it.infra.ContainerFaults.Fault;
import org.ferry.it.infra.FreePorts;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.postgresql.PostgreSQLContainer;
import tools.jackson.databind.JsonNode;

/**
 * Fault tests of the embedded mover on a real PostgreSQL server in a container of this class's
 * own: ferry-server killed (kill -9) mid-task at each sync level; PostgreSQL killed (SIGKILL, then
 * its crash recovery), frozen (paused) and cut off the network mid-task, through the container
 * engine; data connections cut mid-file by a fault-injecting proxy; the destination down for
 * longer than a minute; a cancel during a retry back-off. Every test asserts the task's final
 * state and that every destination file is byte-identical to its source. The source sends at
 * most 16 MiB/s, so the transfers are still running when a test strikes; markers come every 0.2 s.
 */
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresFaultTest {

    private static final long RATE = 16L << 20;
    private static final Pattern READY = Pattern.compile("database system is ready to accept connections");
    /** ferry-server's loop or result applier failing on the database, or its pool dropping a connection. */
    private static final Pattern DATABASE_FAILURE =
            Pattern.compile("Scheduler tick failed|Cannot apply \\d+ mover results|marked as broken");

    @Container
    static final PostgreSQLContainer POSTGRES = PostgresContainers.create();

    private FaultSites sites;
    private FtpFaultProxy proxy;
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        sites = FaultSites.start(work, RATE);
        proxy = new FtpFaultProxy(sites.destinationPort()); // every transfer's data goes through it
        ferry = FaultHarness.onPostgres(
                        work,
                        PostgresContainers.jdbcUrl(POSTGRES, "ferry"),
                        "--ferry.transfer.progress-interval-seconds=1")
                .start();
        ferry.endpoint("admin#src", sites.sourcePort());
        ferry.endpoint("admin#dst", proxy.port());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable part : new AutoCloseable[] {ferry, proxy, sites}) {
            if (part != null) {
                part.close();
            }
        }
    }

    /** Three files of 12 MiB and 30 small ones. */
    private Path tree(String name, long seed) throws IOException {
        return sites.tree(name, seed, 3, 12, 30);
    }

    private String submit(String tree) throws Exception {
        return ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/" + tree, "/" + tree));
    }

    private void assertSucceeded(String taskId, String tree) throws Exception {
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(33);
        sites.assertCopied(tree);
    }

    @ParameterizedTest(name = "sync level {0}")
    @ValueSource(strings = {"none", "exists", "size", "mtime", "checksum"})
    void serverKilledMidTaskResumesWithoutTakingAPartialFileAsDone(String level) throws Exception {
        String tree = "kill-" + level;
        tree(tree, level.hashCode());
        java.util.Map<String, Object> transfer =
                FaultHarness.recursive("admin#src", "admin#dst", "/" + tree, "/" + tree);
        if (!level.equals("none")) {
            transfer.put("sync_level", level);
        }
        String taskId = ferry.submit(transfer);
        FaultHarness.awaitTrue("a partial destination file", () -> sites.partialFileAt(tree));
        ferry.kill();
        assertThat(sites.partialFileAt(tree))
                .as("a partial file left by the killed server")
                .isTrue();
        ferry.start();
        assertSucceeded(taskId, tree);
    }

    @ParameterizedTest(name = "PostgreSQL {0} mid-task")
    @EnumSource(Fault.class)
    void theDatabaseFailingMidTaskLosesNothing(Fault fault) throws Exception {
        String tree = "pg-" + fault.name().toLowerCase(Locale.ROOT);
        tree(tree, 41 + fault.ordinal());
        String taskId = submit(tree);
        FaultHarness.awaitTrue("a partial destination file", () -> sites.partialFileAt(tree));
        ContainerFaults database = new ContainerFaults(POSTGRES, READY);
        int felt = databaseFailures();
        long carried = proxy.dataBytes();
        fault.strike(database);
        try {
            if (fault == Fault.PAUSED) {
                // a frozen database fails no call, it only makes them wait: frozen until the
                // embedded mover has moved 8 MiB more, its results waiting for the database
                FaultHarness.awaitTrue(
                        "the data flowing while the database is frozen", () -> proxy.dataBytes() > carried + (8 << 20));
            } else {
                // down until ferry-server has met the outage; the mover goes on, its results wait
                FaultHarness.awaitTrue("ferry-server meeting the outage", () -> databaseFailures() > felt);
            }
        } finally {
            fault.heal(database);
        }
        if (fault == Fault.KILLED) {
            assertThat(POSTGRES.getLogs()).as("killed, not shut down").contains("automatic recovery in progress");
        }
        assertSucceeded(taskId, tree);
    }

    /** @return how often ferry-server has logged a failure on the database */
    private int databaseFailures() throws IOException {
        return (int) DATABASE_FAILURE.matcher(ferry.output()).results().count();
    }

    @Test
    void dataConnectionsCutMidFileResumeFromRestartMarkers() throws Exception {
        Path original = Files.createDirectories(sites.sourceRoot().resolve("cut"));
        byte[] data = new byte[64 << 20];
        new Random(3).nextBytes(data);
        Files.write(original.resolve("cut.bin"), data);
        long carriedBefore = proxy.dataBytes(); // earlier tests' transfers went through the proxy too
        String taskId = submit("cut");
        for (int cut = 1; cut <= 2; cut++) {
            long before = proxy.dataBytes();
            FaultHarness.awaitTrue("data flowing through the proxy", () -> proxy.dataBytes() > before + (8 << 20));
            proxy.cutDataConnections();
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("faults").asLong()).isPositive();
        assertThat(proxy.cuts()).isPositive();
        sites.assertCopied("cut");
        // resumed, not started again: the proxy carried less than the file twice over
        assertThat(proxy.dataBytes() - carriedBefore).isLessThan(2L * data.length);
    }

    @Test
    void destinationDownForMoreThanAMinuteThenTheTaskGoesOn() throws Exception {
        tree("down", 77);
        String taskId = submit("down");
        FaultHarness.awaitTrue("a partial destination file", () -> sites.partialFileAt("down"));
        sites.stopDestination();
        Instant downAt = Instant.now();
        try {
            awaitRetriesWhileDown(taskId, downAt);
        } finally {
            sites.startDestination();
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("is_ok").isNull()).isTrue(); // Globus: null once the task ended
        sites.assertCopied("down");
    }

    /**
     * Keeps the destination down until the task reports, while still ACTIVE, a failed retry more
     * than a minute after the endpoint went down: the event that ends the outage is the service's
     * own report, so the outage is known to have outlasted a minute of retries, however slow the
     * machine.
     */
    private void awaitRetriesWhileDown(String taskId, Instant downAt) throws Exception {
        JsonNode waiting = ferry.await(
                taskId, t -> !t.get("is_ok").asBoolean() && t.get("faults").asLong() > 0, FaultHarness.END);
        assertThat(waiting.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(waiting.get("nice_status").asString()).isIn("CONNECT_FAILED", "CONNECTION_BROKEN", "TIMEOUT");
        Instant minuteLater = downAt.plusSeconds(61);
        JsonNode still = ferry.await(
                taskId,
                t -> !"ACTIVE".equals(t.get("status").asString()) || errorEventSince(taskId, minuteLater),
                FaultHarness.END.plus(FaultHarness.END));
        assertThat(still.get("status").asString())
                .as("still retrying more than a minute after the endpoint went down")
                .isEqualTo("ACTIVE");
        assertThat(still.get("is_ok").asBoolean()).isFalse();
    }

    /** @return whether the task has an error event at or after {@code since}; false while none can be read */
    private boolean errorEventSince(String taskId, Instant since) {
        try {
            for (JsonNode event : ferry.api()
                    .get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                    .get("DATA")) {
                if (event.get("is_error").asBoolean()
                        && !eventTime(event.get("time").asString()).isBefore(since)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Instant eventTime(String text) {
        String iso = text.trim().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(iso).toInstant();
        } catch (DateTimeParseException noOffset) {
            return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
        }
    }

    @Test
    void cancelDuringARetryBackOffEndsTheTaskAtOnce() throws Exception {
        tree("cancel", 5);
        ferry.endpoint("admin#nowhere", FreePorts.pick()); // a port nothing listens on
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#nowhere", "/cancel", "/cancel"));
        JsonNode backingOff = ferry.await(
                taskId, t -> "CONNECT_FAILED".equals(t.get("nice_status").asString()), FaultHarness.END);
        assertThat(backingOff.get("is_ok").asBoolean()).isFalse();
        assertThat(backingOff.get("status").asString()).isEqualTo("ACTIVE");
        ferry.api().post("/v0.10/task/" + taskId + "/cancel", Map.of());
        JsonNode task = ferry.task(taskId);
        assertThat(task.get("status").asString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("CANCELED");
        long faults = task.get("faults").asLong();
        // a probe task to the same endpoint, submitted after the cancel: its fourth fault comes
        // after back-offs of 0.5, 1 and 2 s, longer than the longest (3 s) the canceled task could
        // have been waiting out, so a retry of the canceled task would have come before it
        String probe = ferry.submit(FaultHarness.recursive("admin#src", "admin#nowhere", "/cancel", "/probe"));
        ferry.await(probe, t -> t.get("faults").asLong() >= 4, FaultHarness.END);
        ferry.api().post("/v0.10/task/" + probe + "/cancel", Map.of());
        assertThat(ferry.task(taskId).get("faults").asLong()).isEqualTo(faults);
        assertThat(ferry.events(taskId).get(0)).isEqualTo("CANCELED");
    }
}
