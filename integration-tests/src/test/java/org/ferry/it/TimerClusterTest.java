package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.it.infra.PostgresServer;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Timers on Quartz's clustered JDBC job store in a real PostgreSQL, with real ferry-server
 * processes and two Ferry GridFTP servers: a ferry-server killed (SIGKILL) and started again
 * between ticks loses no tick and runs none twice; two ferry-server instances on one database
 * fire each tick exactly once between them. What is asserted is the run history: one row per
 * tick on {@code start + n x interval}, no gap, and no tick any instance tried to run twice.
 */
class TimerClusterTest {

    private static final Duration PATIENCE = Duration.ofSeconds(180);
    private static final long INTERVAL_SECONDS = 3;
    private static final Pattern SUBMITTED = Pattern.compile("Timer [0-9a-f-]+: tick at \\S+ submitted task");
    private static final Pattern AGAIN = Pattern.compile("already recorded; not run again");

    @Test
    void aRestartBetweenTicksLosesNoneAndDoublesNone(@TempDir Path work) throws Exception {
        try (PostgresServer postgres = PostgresServer.start(work.resolve("postgres"));
                GridFtpServer source = site(work.resolve("a"));
                GridFtpServer destination = site(work.resolve("b"))) {
            Files.writeString(Files.createDirectories(work.resolve("a/src")).resolve("f.txt"), "f");
            Path home = Files.createDirectories(work.resolve("home"));
            Path log = work.resolve("server.log");
            List<String> arguments = arguments(postgres);
            String timerId;
            RestClient api;
            List<JsonNode> before;
            try (FerryServerProcess server = FerryServerProcess.start(Launchers.fromBuild(), home, log, arguments)) {
                api = client(server, home);
                endpoints(api, source, destination);
                timerId = createTimer(api);
                before = awaitRuns(api, timerId, runs -> runs.size() >= 2);
                server.kill();
            }
            Instant killedAt = Instant.now();
            try (FerryServerProcess server = FerryServerProcess.start(Launchers.fromBuild(), home, log, arguments)) {
                RestClient again = client(server, home);
                List<JsonNode> after = awaitRuns(
                        again,
                        timerId,
                        runs -> runs.stream()
                                        .filter(r -> scheduled(r).isAfter(killedAt))
                                        .count()
                                >= 3);
                assertThat(after.size()).isGreaterThan(before.size());
                assertContiguous(again, timerId, after);
                assertThat(AGAIN.matcher(Files.readString(log)).find())
                        .as("no tick was run twice")
                        .isFalse();
                again.post("/v0.10/timer/" + timerId + "/pause", Map.of());
            }
        }
    }

    @Test
    void twoInstancesOnOnePostgresFireEachTickOnce(@TempDir Path work) throws Exception {
        try (PostgresServer postgres = PostgresServer.start(work.resolve("postgres"));
                GridFtpServer source = site(work.resolve("a"));
                GridFtpServer destination = site(work.resolve("b"))) {
            Files.writeString(Files.createDirectories(work.resolve("a/src")).resolve("f.txt"), "f");
            Path homeA = Files.createDirectories(work.resolve("home-a"));
            Path homeB = Files.createDirectories(work.resolve("home-b"));
            Path logA = work.resolve("a.log");
            Path logB = work.resolve("b.log");
            try (FerryServerProcess a =
                            FerryServerProcess.start(Launchers.fromBuild(), homeA, logA, arguments(postgres));
                    FerryServerProcess b =
                            FerryServerProcess.start(Launchers.fromBuild(), homeB, logB, arguments(postgres))) {
                // one database, one admin: the first instance's token works on both
                RestClient apiA = client(a, homeA);
                RestClient apiB = new RestClient(
                        b.apiUrl(), Files.readString(homeA.resolve("token")).trim());
                endpoints(apiA, source, destination);
                String timerId = createTimer(apiA);
                List<JsonNode> runs = awaitRuns(apiB, timerId, r -> r.size() >= 8);
                assertContiguous(apiB, timerId, runs);
                String outputA = Files.readString(logA);
                String outputB = Files.readString(logB);
                assertThat(AGAIN.matcher(outputA + outputB).find())
                        .as("Quartz fired no tick on both instances")
                        .isFalse();
                // every submitted run was submitted by exactly one instance
                long submitted = runs.stream()
                        .filter(r -> "SUBMITTED".equals(r.get("outcome").asString()))
                        .count();
                assertThat(count(SUBMITTED, outputA) + count(SUBMITTED, outputB))
                        .isGreaterThanOrEqualTo(submitted);
                // both instances are members of one Quartz cluster
                try (Connection db = DriverManager.getConnection(postgres.jdbcUrl());
                        Statement statement = db.createStatement();
                        ResultSet members = statement.executeQuery(
                                "select count(*) from qrtz_scheduler_state where sched_name = 'ferry-timers'")) {
                    members.next();
                    assertThat(members.getInt(1)).isEqualTo(2);
                }
                apiA.post("/v0.10/timer/" + timerId + "/pause", Map.of());
            }
        }
    }

    private static GridFtpServer site(Path root) throws Exception {
        Files.createDirectories(root);
        return GridFtpServer.start(GridFtpServerConfig.loopback(root).withAnonymousAllowed(true));
    }

    private static List<String> arguments(PostgresServer postgres) {
        return List.of(
                "--spring.datasource.url=" + postgres.jdbcUrl(),
                "--ferry.timers.cluster-checkin-interval=2s",
                "--ferry.transfer.retry-initial-backoff=500ms",
                "--ferry.transfer.retry-max-backoff=2s");
    }

    private static RestClient client(FerryServerProcess server, Path home) throws Exception {
        return new RestClient(
                server.apiUrl(), Files.readString(home.resolve("token")).trim());
    }

    private static void endpoints(RestClient api, GridFtpServer source, GridFtpServer destination) throws Exception {
        api.post(
                "/v0.10/endpoint", Map.of("canonical_name", "admin#tick-a", "url", "ftp://127.0.0.1:" + source.port()));
        api.post(
                "/v0.10/endpoint",
                Map.of("canonical_name", "admin#tick-b", "url", "ftp://127.0.0.1:" + destination.port()));
    }

    private static String createTimer(RestClient api) throws Exception {
        Map<String, Object> body = new HashMap<>();
        body.put("DATA_TYPE", "transfer");
        body.put("source_endpoint", "admin#tick-a");
        body.put("destination_endpoint", "admin#tick-b");
        body.put("sync_level", "size");
        body.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        "/src",
                        "destination_path",
                        "/dst",
                        "recursive",
                        true)));
        Map<String, Object> schedule = Map.of("type", "recurring", "interval_seconds", INTERVAL_SECONDS);
        JsonNode timer = api.post(
                "/v0.10/timer",
                Map.of("timer", Map.of("name", "every few seconds", "schedule", schedule, "body", body)));
        return timer.get("job_id").asString();
    }

    private static List<JsonNode> awaitRuns(RestClient api, String timerId, Predicate<List<JsonNode>> done)
            throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        List<JsonNode> runs = List.of();
        while (System.nanoTime() < deadline) {
            runs = new ArrayList<>();
            api.get("/v0.10/timer/" + timerId + "/runs").get("runs").forEach(runs::add);
            if (done.test(runs)) {
                return runs;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("timer " + timerId + " runs: " + runs);
    }

    /** One row per tick on start + n x interval from tick 0 to the last, none twice, none missing. */
    private static void assertContiguous(RestClient api, String timerId, List<JsonNode> runs) throws Exception {
        Instant start = OffsetDateTime.parse(api.get("/v0.10/timer/" + timerId)
                        .get("schedule")
                        .get("start")
                        .asString())
                .toInstant();
        List<Long> ticks = new ArrayList<>();
        for (JsonNode run : runs) {
            long millis = Duration.between(start, scheduled(run)).toMillis();
            ticks.add(Math.round(millis / (INTERVAL_SECONDS * 1000.0)));
        }
        for (int n = 0; n < ticks.size(); n++) {
            assertThat(ticks.get(n)).as("tick %d of %s", n, runs).isEqualTo((long) n);
        }
        for (JsonNode run : runs) {
            assertThat(run.get("outcome").asString()).as(run.toString()).isIn("SUBMITTED", "SKIPPED");
        }
    }

    private static Instant scheduled(JsonNode run) {
        return OffsetDateTime.parse(run.get("scheduled_time").asString()).toInstant();
    }

    private static long count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
