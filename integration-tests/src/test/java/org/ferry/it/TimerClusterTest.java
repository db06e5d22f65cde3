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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Timers on Quartz's clustered JDBC job store in a real PostgreSQL, with real ferry-server
 * processes and two Ferry GridFTP servers: a ferry-server killed (SIGKILL) and started again
 * between ticks loses no tick and runs none twice; two ferry-server instances on one database
 * fire each tick exactly once between them, and when the one firing the ticks is killed the other
 * takes them over. What is asserted is the run history: one row per tick on
 * {@code start + n x interval}, no gap, and, from the instances' logs, exactly one instance that
 * ran each tick. Each test has a database of its own on the JVM's shared PostgreSQL container.
 */
@RequiresContainers
class TimerClusterTest {

    private static final Duration PATIENCE = Duration.ofSeconds(180);
    private static final long INTERVAL_SECONDS = 3;
    private static final Pattern AGAIN = Pattern.compile("already recorded; not run again");

    @Test
    void aRestartBetweenTicksLosesNoneAndDoublesNone(@TempDir Path work) throws Exception {
        String postgres = PostgresContainers.createDatabase(PostgresContainers.shared(), "timer_restart");
        try (GridFtpServer source = site(work.resolve("a"));
                GridFtpServer destination = site(work.resolve("b"))) {
            Files.writeString(Files.createDirectories(work.resolve("a/src")).resolve("f.txt"), "f");
            Path home = Files.createDirectories(work.resolve("home"));
            Path log = work.resolve("server.log");
            List<String> arguments = arguments(postgres);
            String timerId;
            RestClient api;
            List<JsonNode> before;
            String killedOutput;
            try (FerryServerProcess server = FerryServerProcess.start(Launchers.fromBuild(), home, log, arguments)) {
                api = client(server, home);
                endpoints(api, source, destination);
                timerId = createTimer(api);
                before = awaitRuns(api, timerId, runs -> runs.size() >= 2);
                server.kill();
                killedOutput = server.output();
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
                // paused, the timer takes no tick: a tick that logged its line has committed its row
                again.post("/v0.10/timer/" + timerId + "/pause", Map.of());
                List<JsonNode> runs = runs(again, timerId);
                assertContiguous(again, timerId, runs);
                List<Fired> firedBeforeKill = fired(timerId, killedOutput);
                List<Fired> firedAfterRestart = fired(timerId, server.output());
                assertEachTickRanOnce(runs, firedBeforeKill, firedAfterRestart);
                assertNoTickFiredTwice(timerId, killedOutput, firedBeforeKill, server.output());
            }
        }
    }

    @Test
    void twoInstancesOnOnePostgresFireEachTickOnce(@TempDir Path work) throws Exception {
        String postgres = PostgresContainers.createDatabase(PostgresContainers.shared(), "timer_cluster");
        try (GridFtpServer source = site(work.resolve("a"));
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
                String token = Files.readString(homeA.resolve("token")).trim();
                Map<FerryServerProcess, Path> logs = Map.of(a, logA, b, logB);
                RestClient apiA = new RestClient(a.apiUrl(), token);
                endpoints(apiA, source, destination);
                String timerId = createTimer(apiA);
                // both instances are members of one Quartz cluster
                assertThat(clusterMembers(postgres)).isEqualTo(2);

                // Quartz lets one instance take the ticks while it lives (it acquires the next tick
                // as soon as it fired one), so the instance that fired the latest tick is killed
                // (SIGKILL) right after that tick's row appears, seconds before the next: the
                // other must notice the dead member and fire every tick from then on
                List<JsonNode> beforeKill = awaitRuns(apiA, timerId, runs -> runs.size() >= 3);
                JsonNode lastBeforeKill = beforeKill.get(beforeKill.size() - 1);
                FerryServerProcess victim = firedBy(timerId, lastBeforeKill, logs);
                FerryServerProcess survivor = victim == a ? b : a;
                victim.kill();
                // the victim's log is complete now: the ticks it ran, up to its death
                List<Fired> firedByVictim = fired(timerId, Files.readString(logs.get(victim)));
                Instant victimsLastTick = firedByVictim.stream()
                        .map(Fired::tick)
                        .max(Instant::compareTo)
                        .orElseThrow();
                assertThat(victimsLastTick).isAfterOrEqualTo(scheduled(lastBeforeKill));
                RestClient api = new RestClient(survivor.apiUrl(), token);
                awaitRuns(
                        api,
                        timerId,
                        runs -> runs.stream()
                                        .filter(r -> scheduled(r).isAfter(victimsLastTick))
                                        .count()
                                >= 3);
                // the survivor found the dead member and removed it from the cluster
                awaitClusterMembers(postgres, 1);
                // paused, the timer takes no tick: a tick that logged its line has committed its row
                // (the pause waits for the timer row's lock, which a tick holds until it commits)
                api.post("/v0.10/timer/" + timerId + "/pause", Map.of());
                List<JsonNode> runs = runs(api, timerId);
                assertContiguous(api, timerId, runs);

                List<Fired> firedBySurvivor = fired(timerId, Files.readString(logs.get(survivor)));
                assertEachTickRanOnce(runs, firedByVictim, firedBySurvivor);
                // both took part: the victim up to its death, the survivor every tick after it
                assertThat(firedByVictim).extracting(Fired::tick).contains(scheduled(lastBeforeKill));
                assertThat(firedBySurvivor)
                        .extracting(Fired::tick)
                        .filteredOn(t -> t.isAfter(victimsLastTick))
                        .hasSizeGreaterThanOrEqualTo(3);
                assertNoTickFiredTwice(
                        timerId,
                        Files.readString(logs.get(victim)),
                        firedByVictim,
                        Files.readString(logs.get(survivor)));
            }
        }
    }

    /**
     * Exactly one instance (or run of the server) ran each tick: across their logs, one line per
     * run row, naming the row's task (none for a skipped tick), and no line for a tick without a row.
     */
    private static void assertEachTickRanOnce(List<JsonNode> runs, List<Fired> first, List<Fired> second) {
        List<Fired> all = new ArrayList<>(first);
        all.addAll(second);
        Map<Instant, String> expected = new HashMap<>();
        for (JsonNode run : runs) {
            expected.put(
                    scheduled(run),
                    run.hasNonNull("task_id") ? run.get("task_id").asString() : null);
        }
        Map<Instant, String> logged = new HashMap<>();
        for (Fired line : all) {
            assertThat(logged.containsKey(line.tick()))
                    .as("tick %s run once: %s", line.tick(), all)
                    .isFalse();
            logged.put(line.tick(), line.taskId());
        }
        assertThat(logged).isEqualTo(expected);
    }

    /**
     * Quartz fired no tick twice, except that it may hand a job the killed process was running
     * when it died to the next (recovery): the runner then finds the tick's row and runs nothing.
     *
     * @param killedOutput the killed process's output
     * @param firedByKilled the ticks it ran
     * @param otherOutput the output of the process that took over
     */
    private static void assertNoTickFiredTwice(
            String timerId, String killedOutput, List<Fired> firedByKilled, String otherOutput) {
        assertThat(lines(AGAIN, killedOutput)).isEmpty();
        List<String> killedTicks = firedByKilled.stream().map(Fired::logged).toList();
        for (String again : lines(AGAIN, otherOutput)) {
            assertThat(killedTicks).anySatisfy(tick -> assertThat(again).contains(timerId, tick));
        }
    }

    /**
     * One tick an instance ran, from its log.
     *
     * @param tick its scheduled time to the second, as the API shows it (ticks are 3 s apart)
     * @param logged its scheduled time as the log wrote it
     * @param taskId its run's task, null if it was skipped
     */
    private record Fired(Instant tick, String logged, String taskId) {}

    private static final Pattern FIRED = Pattern.compile(
            "Timer ([0-9a-f-]+): tick at (\\S+) (?:submitted task ([0-9a-f-]+)|skipped, task [0-9a-f-]+ still running)");

    private static List<Fired> fired(String timerId, String log) {
        List<Fired> fired = new ArrayList<>();
        Matcher m = FIRED.matcher(log);
        while (m.find()) {
            if (m.group(1).equals(timerId)) {
                fired.add(new Fired(Instant.parse(m.group(2)).truncatedTo(ChronoUnit.SECONDS), m.group(2), m.group(3)));
            }
        }
        return fired;
    }

    /** @return the instance whose log has the line of this run */
    private static FerryServerProcess firedBy(String timerId, JsonNode run, Map<FerryServerProcess, Path> logs)
            throws Exception {
        Instant tick = scheduled(run);
        List<FerryServerProcess> found = new ArrayList<>();
        for (Map.Entry<FerryServerProcess, Path> entry : logs.entrySet()) {
            if (fired(timerId, Files.readString(entry.getValue())).stream()
                    .anyMatch(f -> f.tick().equals(tick))) {
                found.add(entry.getKey());
            }
        }
        assertThat(found).as("the instance that ran %s", run).hasSize(1);
        return found.get(0);
    }

    private static void awaitClusterMembers(String postgres, int members) {
        Awaitility.await("Quartz cluster members: " + members)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> clusterMembers(postgres) == members);
    }

    private static int clusterMembers(String postgres) throws Exception {
        try (Connection db = DriverManager.getConnection(postgres);
                Statement statement = db.createStatement();
                ResultSet members = statement.executeQuery(
                        "select count(*) from qrtz_scheduler_state where sched_name = 'ferry-timers'")) {
            members.next();
            return members.getInt(1);
        }
    }

    private static List<String> lines(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (pattern.matcher(line).find()) {
                found.add(line);
            }
        }
        return found;
    }

    private static GridFtpServer site(Path root) throws Exception {
        Files.createDirectories(root);
        return GridFtpServer.start(GridFtpServerConfig.loopback(root).withAnonymousAllowed(true));
    }

    private static List<String> arguments(String postgres) {
        return List.of(
                "--spring.datasource.url=" + postgres,
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

    private static List<JsonNode> awaitRuns(RestClient api, String timerId, Predicate<List<JsonNode>> done) {
        return Awaitility.await("runs of timer " + timerId)
                .atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> runs(api, timerId), done);
    }

    private static List<JsonNode> runs(RestClient api, String timerId) throws Exception {
        List<JsonNode> runs = new ArrayList<>();
        api.get("/v0.10/timer/" + timerId + "/runs").get("runs").forEach(runs::add);
        return runs;
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
}
