package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Timers on Quartz (the clustered JDBC job store in the service's own database) running real
 * transfers between two in-JVM Ferry GridFTP servers, run once per database by {@link TimerTest}
 * (H2) and {@link TimerPostgresTest} (PostgreSQL). A run is held by an endpoint the test
 * controls: its URL first names a port where nothing listens (the task stays ACTIVE, retrying),
 * then the test points it at the real server and the run completes. Every wait polls the REST
 * API for a state with a generous deadline.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class TimerScenarios {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @DynamicPropertySource
    static void timerSettings(DynamicPropertyRegistry registry) {
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
        registry.add("ferry.transfer.retry-initial-backoff", () -> "1s");
        registry.add("ferry.transfer.retry-max-backoff", () -> "2s");
    }

    private final TransferFixture fixture;
    private final Path siteA;
    private final Path siteB;

    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    ApiClient api;

    /** @param fixture the concrete class's home, database and sites */
    TimerScenarios(TransferFixture fixture) {
        this.fixture = fixture;
        this.siteA = fixture.siteA();
        this.siteB = fixture.siteB();
    }

    @BeforeEach
    void connect() throws IOException {
        api = fixture.adminApi(port, dataSource);
        fixture.registerSites(api, "timer");
    }

    @Test
    void aTimerRunsSkipsUnderALongRunPausesResumesAndEnds() throws Exception {
        Files.createDirectories(siteA.resolve("t1/src"));
        Files.writeString(siteA.resolve("t1/src/data.txt"), "nightly");
        // the source endpoint starts out unreachable: the first run stays ACTIVE, retrying
        api.post(
                "/v0.10/endpoint",
                TransferFixture.endpoint("admin#held", "ftp://127.0.0.1:" + closedPort(), "alice", "pw-a"));
        Map<String, Object> schedule = new HashMap<>();
        schedule.put("type", "recurring");
        schedule.put("interval_seconds", 2);
        schedule.put("end", Map.of("condition", "iterations", "count", 3));
        ApiClient.Answer created =
                api.post("/v0.10/timer", timer("nightly sync", schedule, "admin#held", "/t1/src", "/t1/dst"));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        String id = created.body().get("job_id").asString();
        assertThat(created.body().get("status").asString()).isEqualTo("active");
        assertThat(created.body().get("schedule").get("interval_seconds").asLong())
                .isEqualTo(2);
        assertThat(created.body()
                        .get("body")
                        .get("DATA")
                        .get(0)
                        .get("source_path")
                        .asString())
                .isEqualTo("/t1/src");

        // ticks while the first run is held are recorded SKIPPED; only one run exists
        List<JsonNode> runs = TaskWaits.timerRuns(api, id, r -> count(r, "SKIPPED") >= 2);
        assertThat(count(runs, "SUBMITTED")).isEqualTo(1);
        String firstTask = runs.get(0).get("task_id").asString();
        assertThat(runs.get(0).get("outcome").asString()).isEqualTo("SUBMITTED");
        assertThat(api.get("/v0.10/task/" + firstTask).body().get("status").asString())
                .isEqualTo("ACTIVE");
        assertThat(api.get("/v0.10/task/" + firstTask).body().get("label").asString())
                .isEqualTo("nightly sync");
        JsonNode shown = api.get("/v0.10/timer/" + id).body();
        assertThat(shown.get("number_of_runs").asInt()).isEqualTo(1);
        assertThat(shown.get("number_of_skips").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(shown.get("next_run").isNull()).isFalse();

        // pause: no tick fires while the held run is released and completes
        JsonNode paused = api.post("/v0.10/timer/" + id + "/pause", Map.of()).body();
        assertThat(paused.get("status").asString()).isEqualTo("inactive");
        assertThat(paused.get("inactive_reason").get("cause").asString()).isEqualTo("user");
        assertThat(paused.get("next_run").isNull()).isTrue();
        int ticksWhenPaused =
                api.get("/v0.10/timer/" + id + "/runs").body().get("runs").size();
        ApiClient.Answer moved = api.put("/v0.10/endpoint/admin%23held", Map.of("url", fixture.urlA()));
        assertThat(moved.status()).as(String.valueOf(moved.body())).isEqualTo(200);
        assertThat(TaskWaits.ended(api, firstTask).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(siteB.resolve("t1/dst/data.txt")).hasContent("nightly");
        assertThat(api.get("/v0.10/timer/" + id + "/runs").body().get("runs").size())
                .as("no tick while paused")
                .isEqualTo(ticksWhenPaused);

        // resume: two more runs, then the run count ends it (skips did not count)
        assertThat(api.post("/v0.10/timer/" + id + "/resume", Map.of())
                        .body()
                        .get("status")
                        .asString())
                .isEqualTo("active");
        JsonNode ended = awaitTimer(id, t -> "ended".equals(t.get("status").asString()));
        assertThat(ended.get("number_of_runs").asInt()).isEqualTo(3);
        assertThat(ended.get("next_run").isNull()).isTrue();
        runs = list(api.get("/v0.10/timer/" + id + "/runs").body().get("runs"));
        assertThat(count(runs, "SUBMITTED")).isEqualTo(3);
        // every tick on start + n x 2 s, none twice
        Instant start = OffsetDateTime.parse(ended.get("schedule").get("start").asString())
                .toInstant();
        HashSet<String> seen = new HashSet<>();
        for (JsonNode run : runs) {
            String scheduled = run.get("scheduled_time").asString();
            assertThat(seen.add(scheduled)).as("tick %s once", scheduled).isTrue();
            Instant at = OffsetDateTime.parse(scheduled).toInstant();
            assertThat(Duration.between(start, at).toMillis() % 2000)
                    .as(scheduled)
                    .isZero();
        }
        for (JsonNode run : runs) {
            if ("SUBMITTED".equals(run.get("outcome").asString())) {
                assertThat(TaskWaits.ended(api, run.get("task_id").asString())
                                .get("status")
                                .asString())
                        .isEqualTo("SUCCEEDED");
            }
        }
    }

    @Test
    void cronTimersFollowTheirTimeZoneAndOnceTimersRunOnce() throws Exception {
        Files.createDirectories(siteA.resolve("t2/src"));
        Files.writeString(siteA.resolve("t2/src/x.txt"), "x");
        Map<String, Object> cron = new HashMap<>();
        cron.put("type", "cron");
        cron.put("cron_expression", "0/2 * * * * ?");
        cron.put("time_zone", "Europe/Berlin");
        cron.put("end", Map.of("condition", "iterations", "count", 1));
        ApiClient.Answer created =
                api.post("/v0.10/timer", timer("cron", cron, "admin#timer-a", "/t2/src", "/t2/cron"));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().get("schedule").get("time_zone").asString()).isEqualTo("Europe/Berlin");
        assertThat(created.body().get("next_run").isNull()).isFalse();
        String id = created.body().get("job_id").asString();
        JsonNode ended = awaitTimer(id, t -> "ended".equals(t.get("status").asString()));
        assertThat(ended.get("number_of_runs").asInt()).isEqualTo(1);
        String task = api.get("/v0.10/timer/" + id + "/runs")
                .body()
                .get("runs")
                .get(0)
                .get("task_id")
                .asString();
        assertThat(TaskWaits.ended(api, task).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(siteB.resolve("t2/cron/x.txt")).hasContent("x");

        ApiClient.Answer once =
                api.post("/v0.10/timer", timer("once", Map.of("type", "once"), "admin#timer-a", "/t2/src", "/t2/once"));
        String onceId = once.body().get("job_id").asString();
        JsonNode onceEnded =
                awaitTimer(onceId, t -> "ended".equals(t.get("status").asString()));
        assertThat(onceEnded.get("number_of_runs").asInt()).isEqualTo(1);
    }

    @Test
    void timersAreListedUpdatedDeletedAndBadDocumentsAreRefusedByField() {
        Map<String, Object> daily = new HashMap<>();
        daily.put("type", "cron");
        daily.put("cron_expression", "0 0 2 * * ?");
        daily.put("time_zone", "America/Chicago");
        ApiClient.Answer created = api.post("/v0.10/timer", timer("daily", daily, "admin#timer-a", "/x", "/y"));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        String id = created.body().get("job_id").asString();
        assertThat(api.get("/v0.10/timer").body().get("timers").findValuesAsString("job_id"))
                .contains(id);
        // Quartz keeps the timer's trigger in the service's own database (this class's database)
        assertThat(quartzTriggers(id)).isEqualTo(1);

        ApiClient.Answer renamed = api.request(
                "PATCH",
                "/v0.10/timer/" + id,
                Map.of(
                        "timer",
                        Map.of("name", "hourly", "schedule", Map.of("type", "recurring", "interval_seconds", 3600))));
        assertThat(renamed.status()).as(String.valueOf(renamed.body())).isEqualTo(200);
        assertThat(renamed.body().get("name").asString()).isEqualTo("hourly");
        assertThat(renamed.body().get("schedule").get("interval_seconds").asLong())
                .isEqualTo(3600);

        assertThat(api.delete("/v0.10/timer/" + id).body().get("status").asString())
                .isEqualTo("deleted");
        assertThat(api.get("/v0.10/timer/" + id).status()).isEqualTo(404);
        assertThat(quartzTriggers(id)).isZero();

        Map<String, Object> badCron = new HashMap<>(daily);
        badCron.put("cron_expression", "every night");
        assertField(
                api.post("/v0.10/timer", timer("bad", badCron, "admin#timer-a", "/x", "/y")),
                "timer.schedule.cron_expression");
        Map<String, Object> badZone = new HashMap<>(daily);
        badZone.put("time_zone", "Mars/Olympus");
        assertField(
                api.post("/v0.10/timer", timer("bad", badZone, "admin#timer-a", "/x", "/y")),
                "timer.schedule.time_zone");
        assertField(
                api.post(
                        "/v0.10/timer",
                        timer("bad", Map.of("type", "recurring", "interval_seconds", 0), "admin#timer-a", "/x", "/y")),
                "timer.schedule.interval_seconds");
        assertField(
                api.post(
                        "/v0.10/timer",
                        timer("bad", Map.of("type", "recurring", "interval_seconds", 60), "admin#timer-a", "x", "/y")),
                "timer.body.DATA[0].source_path");
        assertField(
                api.post("/v0.10/timer", timer("bad", Map.of("type", "weekly"), "admin#timer-a", "/x", "/y")),
                "timer.schedule.type");
    }

    @Test
    void aTimerWithAFutureStartAndAnEndTimeTicksOnlyBetweenThemAndEnds() throws Exception {
        Files.createDirectories(siteA.resolve("t3/src"));
        Files.writeString(siteA.resolve("t3/src/w.txt"), "window");
        // far enough ahead that the timer exists well before its start; whole seconds, as a user writes them
        Instant start = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.SECONDS);
        Instant end = start.plusSeconds(5);
        Map<String, Object> schedule = new HashMap<>();
        schedule.put("type", "recurring");
        schedule.put("interval_seconds", 2);
        schedule.put("start", start.toString());
        schedule.put("end", Map.of("condition", "time", "datetime", end.toString()));
        ApiClient.Answer created =
                api.post("/v0.10/timer", timer("window", schedule, "admin#timer-a", "/t3/src", "/t3/dst"));
        Instant answered = Instant.now();
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        String id = created.body().get("job_id").asString();
        JsonNode given = created.body().get("schedule");
        assertThat(instant(given.get("start"))).isEqualTo(start);
        assertThat(given.get("end").get("condition").asString()).isEqualTo("time");
        assertThat(instant(given.get("end").get("datetime"))).isEqualTo(end);
        // the first tick is the start, not the creation: exactly so while the start is ahead of the
        // answer; a machine slower than the 8 s lead may have ticked once already, on the schedule
        Instant nextRun = instant(created.body().get("next_run"));
        if (answered.isBefore(start)) {
            assertThat(nextRun).isEqualTo(start);
        } else {
            assertThat(nextRun).isIn(start, start.plusSeconds(2), start.plusSeconds(4));
        }
        // and with no such race: a start a day ahead is the next run
        Instant tomorrow = start.plus(Duration.ofDays(1));
        Map<String, Object> later = new HashMap<>(schedule);
        later.put("start", tomorrow.toString());
        later.put(
                "end",
                Map.of("condition", "time", "datetime", tomorrow.plusSeconds(5).toString()));
        ApiClient.Answer ahead =
                api.post("/v0.10/timer", timer("window-ahead", later, "admin#timer-a", "/t3/src", "/t3/dst"));
        assertThat(ahead.status()).as(String.valueOf(ahead.body())).isEqualTo(201);
        assertThat(instant(ahead.body().get("next_run"))).isEqualTo(tomorrow);
        api.delete("/v0.10/timer/" + ahead.body().get("job_id").asString());

        JsonNode ended = awaitTimer(id, t -> "ended".equals(t.get("status").asString()));
        assertThat(ended.get("next_run").isNull()).isTrue();
        List<JsonNode> runs =
                list(api.get("/v0.10/timer/" + id + "/runs").body().get("runs"));
        // ticks on start, start + 2 s, start + 4 s: none before the start, none after the end
        assertThat(runs)
                .extracting(r -> instant(r.get("scheduled_time")))
                .containsExactlyInAnyOrder(start, start.plusSeconds(2), start.plusSeconds(4));
        for (JsonNode run : runs) {
            assertThat(instant(run.get("fired_time")))
                    .as("fired at or after its tick: %s", run)
                    .isAfterOrEqualTo(instant(run.get("scheduled_time")));
            assertThat(run.get("outcome").asString()).as(run.toString()).isIn("SUBMITTED", "SKIPPED");
        }
        assertThat(count(runs, "SUBMITTED"))
                .isEqualTo(ended.get("number_of_runs").asLong());
        String firstTask = runs.stream()
                .filter(r -> instant(r.get("scheduled_time")).equals(start))
                .findFirst()
                .orElseThrow()
                .get("task_id")
                .asString();
        assertThat(TaskWaits.ended(api, firstTask).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(siteB.resolve("t3/dst/w.txt")).hasContent("window");
    }

    @Test
    void aTimerRunMirrorsWithItsFilterRules() throws Exception {
        write(siteA.resolve("t4/src/keep.txt"), "keep, new");
        write(siteA.resolve("t4/src/sub/deep.txt"), "deep");
        write(siteA.resolve("t4/src/scratch.tmp"), "excluded: not copied");
        write(siteB.resolve("t4/dst/keep.txt"), "keep, old");
        write(siteB.resolve("t4/dst/extra.txt"), "extra");
        write(siteB.resolve("t4/dst/old/stale.txt"), "stale");
        write(siteB.resolve("t4/dst/local.tmp"), "excluded names are kept");
        write(siteB.resolve("t4/dst-sibling/z.txt"), "outside the destination path: kept");
        Map<String, Object> extra = new HashMap<>();
        extra.put("delete_destination_extra", true);
        extra.put("filter_rules", List.of(Map.of("DATA_TYPE", "filter_rule", "method", "exclude", "name", "*.tmp")));
        ApiClient.Answer created = api.post(
                "/v0.10/timer", timer("mirror", Map.of("type", "once"), "admin#timer-a", "/t4/src", "/t4/dst", extra));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        JsonNode body = created.body().get("body");
        assertThat(body.get("delete_destination_extra").asBoolean()).isTrue();
        assertThat(body.get("filter_rules").get(0).get("name").asString()).isEqualTo("*.tmp");
        String id = created.body().get("job_id").asString();

        awaitTimer(id, t -> "ended".equals(t.get("status").asString()));
        JsonNode run =
                api.get("/v0.10/timer/" + id + "/runs").body().get("runs").get(0);
        assertThat(run.get("outcome").asString()).isEqualTo("SUBMITTED");
        String taskId = run.get("task_id").asString();
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("delete_destination_extra").asBoolean()).isTrue();
        assertThat(task.get("filter_rules").get(0).get("name").asString()).isEqualTo("*.tmp");
        assertThat(snapshot(siteB.resolve("t4")))
                .isEqualTo(Map.of(
                        "dst", "dir",
                        "dst/keep.txt", "keep, new",
                        "dst/sub", "dir",
                        "dst/sub/deep.txt", "deep",
                        "dst/local.tmp", "excluded names are kept",
                        "dst-sibling", "dir",
                        "dst-sibling/z.txt", "outside the destination path: kept"));
        List<String> deleted = new ArrayList<>();
        for (JsonNode event : api.get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                .body()
                .get("DATA")) {
            if ("DESTINATION_EXTRA_DELETED".equals(event.get("code").asString())) {
                deleted.add(event.get("details").asString());
            }
        }
        assertThat(deleted)
                .hasSize(3)
                .anySatisfy(d -> assertThat(d).contains("\"/t4/dst/extra.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/t4/dst/old/stale.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/t4/dst/old\"", "\"dir\""));
    }

    @Test
    void aPauseDuringATickWaitsForItAndKeepsWhatItRecorded() throws Exception {
        Map<String, Object> hourly = new HashMap<>();
        hourly.put("type", "recurring");
        hourly.put("interval_seconds", 3600);
        hourly.put("start", Instant.now().plusSeconds(3600).toString());
        ApiClient.Answer created =
                api.post("/v0.10/timer", timer("paused mid-tick", hourly, "admin#timer-a", "/x", "/y"));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        String id = created.body().get("job_id").asString();
        ExecutorService background = Executors.newSingleThreadExecutor();
        try (Connection tick = dataSource.getConnection()) {
            // what a tick does: it takes the timer row's lock first, records its run, and commits
            tick.setAutoCommit(false);
            try (PreparedStatement run =
                    tick.prepareStatement("update timer set number_of_runs = number_of_runs + 1 where id = ?")) {
                run.setObject(1, UUID.fromString(id));
                assertThat(run.executeUpdate()).isEqualTo(1);
            }
            Future<ApiClient.Answer> pause =
                    background.submit(() -> api.post("/v0.10/timer/" + id + "/pause", Map.of()));
            awaitLockWaiter();
            tick.commit();
            ApiClient.Answer paused = pause.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(paused.status()).as(String.valueOf(paused.body())).isEqualTo(200);
            assertThat(paused.body().get("status").asString()).isEqualTo("inactive");
        } finally {
            background.shutdownNow();
        }
        // the pause read the timer after the tick: the run the tick counted is still counted
        JsonNode timer = api.get("/v0.10/timer/" + id).body();
        assertThat(timer.get("status").asString()).isEqualTo("inactive");
        assertThat(timer.get("number_of_runs").asInt()).isEqualTo(1);
        api.delete("/v0.10/timer/" + id);
    }

    /** Waits until a session of the service waits for a row lock (the test's own holds it). */
    private void awaitLockWaiter() {
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(50))
                .alias("a session waiting for the timer row's lock")
                .until(() -> jdbc.queryForObject(fixture.database().lockWaitersQuery(), Integer.class), n -> n > 0);
    }

    private int quartzTriggers(String timerId) {
        Integer n = jdbc.queryForObject(
                "select count(*) from qrtz_triggers where sched_name = 'ferry-timers' and trigger_name = ?",
                Integer.class,
                timerId);
        return n == null ? 0 : n;
    }

    private static Instant instant(JsonNode time) {
        return OffsetDateTime.parse(time.asString()).toInstant();
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        // an hour in the past: a later write (the copy) is told apart by its time too
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
    }

    /** Relative path to text content ("dir" for directories). */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                if (!path.equals(root)) {
                    files.put(
                            root.relativize(path).toString(),
                            Files.isDirectory(path) ? "dir" : Files.readString(path, StandardCharsets.UTF_8));
                }
            }
        }
        return files;
    }

    private static void assertField(ApiClient.Answer answer, String field) {
        assertThat(answer.status()).as(String.valueOf(answer.body())).isEqualTo(400);
        assertThat(answer.body().get("field").asString()).isEqualTo(field);
    }

    private JsonNode awaitTimer(String id, Predicate<JsonNode> done) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(200))
                .alias("timer " + id)
                .until(() -> api.get("/v0.10/timer/" + id).body(), done);
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    private static long count(List<JsonNode> runs, String outcome) {
        return runs.stream()
                .filter(r -> outcome.equals(r.get("outcome").asString()))
                .count();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Map<String, Object> timer(
            String name, Map<String, Object> schedule, String source, String sourcePath, String destinationPath) {
        return timer(name, schedule, source, sourcePath, destinationPath, Map.of());
    }

    /** @param extra more fields of the timer's transfer document */
    private static Map<String, Object> timer(
            String name,
            Map<String, Object> schedule,
            String source,
            String sourcePath,
            String destinationPath,
            Map<String, Object> extra) {
        Map<String, Object> body = new HashMap<>(extra);
        body.put("DATA_TYPE", "transfer");
        body.put("source_endpoint", source);
        body.put("destination_endpoint", "admin#timer-b");
        body.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        true)));
        Map<String, Object> timer = new HashMap<>();
        timer.put("timer_type", "transfer");
        timer.put("name", name);
        timer.put("schedule", schedule);
        timer.put("body", body);
        return Map.of("timer", timer);
    }
}
