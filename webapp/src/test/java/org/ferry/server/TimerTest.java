package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Timers on Quartz (JDBC job store in the H2 database of a temporary FERRY_HOME) running real
 * transfers between two in-JVM Ferry GridFTP servers. A run is held by an endpoint the test
 * controls: its URL first names a port where nothing listens (the task stays ACTIVE, retrying),
 * then the test points it at the real server and the run completes. Every wait polls the REST
 * API for a state with a generous deadline.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TimerTest {

    private static final Path HOME = TestHomes.create("ferry-timer-home");
    private static final Path PERSONAL = TestHomes.create("ferry-timer-personal");
    private static final Path SITE_A = TestHomes.create("ferry-timer-a");
    private static final Path SITE_B = TestHomes.create("ferry-timer-b");
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    private static GridFtpServer serverA;
    private static GridFtpServer serverB;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.personal-endpoint.root", PERSONAL::toString);
        registry.add("ferry.personal-endpoint.port", () -> "0");
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
        registry.add("ferry.transfer.retry-initial-backoff", () -> "1s");
        registry.add("ferry.transfer.retry-max-backoff", () -> "2s");
    }

    @BeforeAll
    static void startServers() throws IOException {
        serverA = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_A)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password)));
        serverB = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_B)
                .withAuthenticator((user, password) -> "bob".equals(user) && "pw-b".equals(password)));
    }

    @AfterAll
    static void stopServers() {
        serverA.close();
        serverB.close();
    }

    @LocalServerPort
    int port;

    ApiClient api;

    @BeforeEach
    void connect() throws IOException {
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        if (api.get("/v0.10/endpoint/admin%23timer-b").status() == 404) {
            api.post(
                    "/v0.10/endpoint", endpoint("admin#timer-a", "ftp://127.0.0.1:" + serverA.port(), "alice", "pw-a"));
            api.post("/v0.10/endpoint", endpoint("admin#timer-b", "ftp://127.0.0.1:" + serverB.port(), "bob", "pw-b"));
        }
    }

    @Test
    void aTimerRunsSkipsUnderALongRunPausesResumesAndEnds() throws Exception {
        Files.createDirectories(SITE_A.resolve("t1/src"));
        Files.writeString(SITE_A.resolve("t1/src/data.txt"), "nightly");
        // the source endpoint starts out unreachable: the first run stays ACTIVE, retrying
        api.post("/v0.10/endpoint", endpoint("admin#held", "ftp://127.0.0.1:" + closedPort(), "alice", "pw-a"));
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
        List<JsonNode> runs = awaitRuns(id, r -> count(r, "SKIPPED") >= 2);
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
        ApiClient.Answer moved =
                api.put("/v0.10/endpoint/admin%23held", Map.of("url", "ftp://127.0.0.1:" + serverA.port()));
        assertThat(moved.status()).as(String.valueOf(moved.body())).isEqualTo(200);
        assertThat(TaskWaits.ended(api, firstTask).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(SITE_B.resolve("t1/dst/data.txt")).hasContent("nightly");
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
        Files.createDirectories(SITE_A.resolve("t2/src"));
        Files.writeString(SITE_A.resolve("t2/src/x.txt"), "x");
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
        assertThat(SITE_B.resolve("t2/cron/x.txt")).hasContent("x");

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

    private static void assertField(ApiClient.Answer answer, String field) {
        assertThat(answer.status()).as(String.valueOf(answer.body())).isEqualTo(400);
        assertThat(answer.body().get("field").asString()).isEqualTo(field);
    }

    private List<JsonNode> awaitRuns(String id, Predicate<List<JsonNode>> done) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> runs =
                    list(api.get("/v0.10/timer/" + id + "/runs").body().get("runs"));
            if (done.test(runs)) {
                return runs;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timer " + id + " runs: "
                + api.get("/v0.10/timer/" + id + "/runs").body());
    }

    private JsonNode awaitTimer(String id, Predicate<JsonNode> done) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode timer = api.get("/v0.10/timer/" + id).body();
            if (done.test(timer)) {
                return timer;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "timer " + id + ": " + api.get("/v0.10/timer/" + id).body());
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

    private static Map<String, Object> endpoint(String name, String url, String user, String password) {
        return Map.of("canonical_name", name, "url", url, "username", user, "password", password);
    }

    private static Map<String, Object> timer(
            String name, Map<String, Object> schedule, String source, String sourcePath, String destinationPath) {
        Map<String, Object> body = new HashMap<>();
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
