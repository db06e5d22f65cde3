package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * A ferry-server process for the fault tests, on the database and work queue its arguments name,
 * with a REST client, kill -9 and restart, and the waits the tests need. Waits poll (Awaitility)
 * for an event the test controls (a state, a counter); the time limits only bound a broken run.
 */
final class FaultHarness implements AutoCloseable {

    /** Bounds a broken run's waits; every wait ends as soon as its event comes. */
    static final Duration END = Duration.ofSeconds(180);

    private final Launchers launchers = Launchers.fromBuild();
    private final Path home;
    private final Path log;
    private final List<String> arguments;
    private FerryServerProcess server;
    private RestClient api;

    /**
     * @param work the test's directory
     * @param arguments the server's Spring arguments
     */
    FaultHarness(Path work, List<String> arguments) throws IOException {
        this.home = Files.createDirectories(work.resolve("home"));
        this.log = work.resolve("ferry-server.log");
        this.arguments = List.copyOf(arguments);
    }

    /**
     * A server on a PostgreSQL database, retrying a failed transfer after 0.5 s, doubling up to
     * 3 s: short back-off, so that a fault test's retries come soon after its fault ends.
     *
     * @param work the test's directory
     * @param jdbcUrl the database
     * @param more further Spring arguments
     */
    static FaultHarness onPostgres(Path work, String jdbcUrl, String... more) throws IOException {
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + jdbcUrl,
                "--ferry.transfer.retry-initial-backoff=500ms",
                "--ferry.transfer.retry-max-backoff=3s"));
        arguments.addAll(List.of(more));
        return new FaultHarness(work, arguments);
    }

    /** Starts (or starts again) the server. */
    FaultHarness start() throws IOException, InterruptedException {
        server = FerryServerProcess.start(launchers, home, log, arguments);
        api = new RestClient(
                server.apiUrl(), Files.readString(home.resolve("token")).trim());
        return this;
    }

    /** Kills the server (SIGKILL: no shutdown of any kind). */
    void kill() throws InterruptedException {
        server.kill();
    }

    /** @return the REST client of the running server */
    RestClient api() {
        return api;
    }

    /** @return the server's output so far */
    String output() throws IOException {
        return Files.readString(log);
    }

    /** Registers an anonymous endpoint. */
    void endpoint(String name, int port) throws IOException, InterruptedException {
        api.post("/v0.10/endpoint", Map.of("canonical_name", name, "url", "ftp://127.0.0.1:" + port));
    }

    /** Registers the sites' servers as the anonymous endpoints {@code admin#src} and {@code admin#dst}. */
    void endpoints(FaultSites sites) throws IOException, InterruptedException {
        endpoint("admin#src", sites.sourcePort());
        endpoint("admin#dst", sites.destinationPort());
    }

    /** @return a transfer document of one recursive item */
    static Map<String, Object> recursive(String source, String destination, String sourcePath, String destinationPath) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", source);
        doc.put("destination_endpoint", destination);
        doc.put(
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
        return doc;
    }

    /** @return the new task's id */
    String submit(Map<String, Object> transfer) throws IOException, InterruptedException {
        return api.post("/v0.10/transfer", transfer).get("task_id").asString();
    }

    /** @return the task document */
    JsonNode task(String taskId) throws IOException, InterruptedException {
        return api.get("/v0.10/task/" + taskId);
    }

    /** @return the task's event codes, newest first */
    List<String> events(String taskId) throws IOException, InterruptedException {
        return api.get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                .get("DATA")
                .findValuesAsString("code");
    }

    /**
     * Polls the task until {@code condition} holds (a server that does not answer, restarting, is
     * asked again).
     *
     * @return the task document that satisfied it
     * @throws AssertionError with the last document and the events after {@code limit}
     */
    JsonNode await(String taskId, Predicate<JsonNode> condition, Duration limit) throws Exception {
        AtomicReference<JsonNode> last = new AtomicReference<>();
        try {
            return Awaitility.await("task " + taskId)
                    .atMost(limit)
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreException(IOException.class)
                    .until(
                            () -> {
                                last.set(task(taskId));
                                return last.get();
                            },
                            condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("condition not reached in " + limit + ": " + last.get() + "\nevents: "
                    + (api == null ? "" : events(taskId)) + "\nserver log tail:\n" + tail(output()));
        }
    }

    /** @return the ended task */
    JsonNode awaitEnd(String taskId) throws Exception {
        return await(taskId, t -> !"ACTIVE".equals(t.get("status").asString()), END);
    }

    /** Waits until {@code condition} holds (a partial file appears, a log line, ...); at most {@link #END}. */
    static void awaitTrue(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(END).pollInterval(Duration.ofMillis(50)).until(condition);
    }

    /** Asserts that every file of {@code expected} is in {@code actual} with the same bytes, and nothing more. */
    static void assertIdentical(Path expected, Path actual) throws IOException {
        assertThat(TreeDigest.of(actual)).isEqualTo(TreeDigest.of(expected));
    }

    /**
     * @return where the mover writes {@code file} until it is checked and renamed
     *     ({@code .name.ferry-part} beside it)
     */
    static Path partial(Path file) {
        return file.resolveSibling("." + file.getFileName() + ".ferry-part");
    }

    /** @return the bytes of {@code file} at the destination so far: its temporary file's, or its own once renamed */
    static long arrived(Path file) {
        return Math.max(size(partial(file)), size(file));
    }

    /** @return the size of a file, 0 if absent */
    static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static String tail(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n")));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }
}
