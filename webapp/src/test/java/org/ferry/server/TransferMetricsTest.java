package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry_faults_total{code}} and {@code ferry_retries_total} in {@code /actuator/prometheus}
 * after real faults between real Ferry GridFTP servers: a missing source file fails a task
 * ({@code FILE_NOT_FOUND}); a missing one under {@code skip_source_errors} is skipped
 * ({@code SKIPPED_ERRORS}); a destination server that is down when the task starts gives
 * {@code CONNECT_FAILED} faults, retried after back-off until the test starts the server on that
 * port and the task succeeds. Each counter must equal what the API's events and task documents
 * say. The test waits for events (a fault event, a task's end, the scrape showing the counters),
 * never for a time.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class TransferMetricsTest {

    private static final Path HOME = TestHomes.create("ferry-metrics");
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.metrics.refresh-seconds", () -> "0"); // every scrape reads the database
        registry.add("ferry.transfer.retry-initial-backoff", () -> "300ms");
        registry.add("ferry.transfer.retry-max-backoff", () -> "1s");
    }

    @LocalServerPort
    int port;

    @Test
    void faultsByCodeAndRetriesAreCountedAsTheTasksSay() throws Exception {
        Path siteA = Files.createDirectories(HOME.resolve("site-a"));
        Path siteB = Files.createDirectories(HOME.resolve("site-b"));
        Files.writeString(siteA.resolve("here.txt"), "here");
        int downPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            downPort = socket.getLocalPort(); // free: nothing listens there until the test says so
        }
        String adminToken = Files.readString(HOME.resolve("token")).trim();
        ApiClient api = new ApiClient(port, adminToken);
        try (TestGridFtp serverA = TestGridFtp.serve(siteA);
                TestGridFtp upB = TestGridFtp.serve(siteB)) {
            for (String[] endpoint : new String[][] {
                {"admin#a", serverA.url()}, {"admin#b", upB.url()}, {"admin#down", "ftp://127.0.0.1:" + downPort}
            }) {
                assertThat(api.post("/v0.10/endpoint", Map.of("canonical_name", endpoint[0], "url", endpoint[1]))
                                .status())
                        .isEqualTo(201);
            }

            JsonNode missing = TaskWaits.ended(api, submit(api, "admin#b", "/missing.txt", false));
            assertThat(missing.get("status").asString()).isEqualTo("FAILED");
            assertThat(missing.get("fatal_error").get("code").asString()).isEqualTo("FILE_NOT_FOUND");

            JsonNode skipped = TaskWaits.ended(api, submit(api, "admin#b", "/missing.txt", true));
            assertThat(skipped.get("status").asString()).isEqualTo("SUCCEEDED");
            assertThat(skipped.get("subtasks_skipped_errors").asLong()).isEqualTo(1);

            String retried = submit(api, "admin#down", "/here.txt", false);
            waitFor(
                    () -> codes(api, retried).contains("CONNECT_FAILED"),
                    "a CONNECT_FAILED event of the task whose destination is down");
            JsonNode done;
            try (TestGridFtp downComesUp = TestGridFtp.serve(siteB, downPort)) {
                done = TaskWaits.ended(api, retried);
            }
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(Files.readString(siteB.resolve("copy/here.txt"))).isEqualTo("here");
            long faults = done.get("faults").asLong();
            assertThat(faults).isPositive();
            long connectFailedEvents = codes(api, retried).stream()
                    .filter("CONNECT_FAILED"::equals)
                    .count();
            assertThat(connectFailedEvents).isEqualTo(faults);

            Map<String, Double> expected = new HashMap<>();
            expected.put("ferry_faults_total{code=\"FILE_NOT_FOUND\"}", 1.0);
            expected.put("ferry_faults_total{code=\"SKIPPED_ERRORS\"}", 1.0);
            expected.put("ferry_faults_total{code=\"CONNECT_FAILED\"}", (double) faults);
            expected.put("ferry_retries_total", (double) faults);
            String[] scrape = new String[1];
            // a code's counter is registered on the read that first finds it: poll until it shows
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            do {
                scrape[0] = prometheus(adminToken);
            } while (!expected.entrySet().stream().allMatch(e -> e.getValue().equals(value(scrape[0], e.getKey())))
                    && System.nanoTime() < deadline
                    && pause());
            String ferrySeries = scrape[0]
                    .lines()
                    .filter(l -> l.startsWith("ferry_"))
                    .collect(java.util.stream.Collectors.joining("\n"));
            for (Map.Entry<String, Double> e : expected.entrySet()) {
                assertThat(value(scrape[0], e.getKey()))
                        .as(e.getKey() + " in\n" + ferrySeries)
                        .isEqualTo(e.getValue());
            }
        }
    }

    private static String submit(ApiClient api, String destination, String sourcePath, boolean skipSourceErrors) {
        Map<String, Object> document =
                new HashMap<>(RestApiTest.transfer("admin#a", destination, null, sourcePath, "/copy/here.txt"));
        document.put("skip_source_errors", skipSourceErrors);
        ApiClient.Answer accepted = api.post("/v0.10/transfer", document);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return accepted.body().get("task_id").asString();
    }

    /** @return the codes of the task's events, newest first */
    private static List<String> codes(ApiClient api, String taskId) {
        JsonNode events = api.get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                .body()
                .get("DATA");
        List<String> codes = new java.util.ArrayList<>();
        for (JsonNode event : events) {
            codes.add(event.get("code").asString());
        }
        return codes;
    }

    private String prometheus(String token) {
        try {
            HttpResponse<String> scrape = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                                    .header("Authorization", "Bearer " + token)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            return scrape.body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param series a series name with at most one label of its own, e.g.
     *     {@code ferry_faults_total{code="FILE_NOT_FOUND"}} (the common labels are ignored)
     * @return its value in the scrape, or null when absent
     */
    static Double value(String scrape, String series) {
        int brace = series.indexOf('{');
        String name = brace < 0 ? series : series.substring(0, brace);
        String label = brace < 0 ? null : series.substring(brace + 1, series.length() - 1);
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$")
                .matcher(scrape);
        while (line.find()) {
            if (label == null || List.of(line.group(1).split(",")).contains(label)) {
                return Double.valueOf(line.group(2));
            }
        }
        return null;
    }

    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) {
        await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(100))
                .alias(what)
                .until(condition::getAsBoolean);
    }
}
