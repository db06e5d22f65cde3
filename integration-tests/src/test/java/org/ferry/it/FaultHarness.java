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
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * A ferry-server process for the fault tests, on the database and work queue its arguments name,
 * with a REST client, kill -9 and restart, and the waits the tests need. Waits poll the API for an
 * event the test controls (a state, a counter); the time limits only bound a broken run.
 */
final class FaultHarness implements AutoCloseable {

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
     * Polls the task until {@code condition} holds.
     *
     * @return the task document that satisfied it
     * @throws AssertionError with the last document and the events after {@code limit}
     */
    JsonNode await(String taskId, Predicate<JsonNode> condition, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        JsonNode task = null;
        while (System.nanoTime() < deadline) {
            try {
                task = task(taskId);
                if (condition.test(task)) {
                    return task;
                }
            } catch (IOException e) {
                // the server is restarting: try again
            }
            Thread.sleep(200);
        }
        throw new AssertionError("condition not reached in " + limit + ": " + task + "\nevents: "
                + (api == null ? "" : events(taskId)) + "\nserver log tail:\n" + tail(output()));
    }

    /** @return the ended task */
    JsonNode awaitEnd(String taskId, Duration limit) throws Exception {
        return await(taskId, t -> !"ACTIVE".equals(t.get("status").asString()), limit);
    }

    /** Waits until {@code condition} holds on the file system (a partial file appears, ...). */
    static void awaitTrue(String what, java.util.function.BooleanSupplier condition, Duration limit)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(what + " not seen in " + limit);
    }

    /** Asserts that every file of {@code expected} is in {@code actual} with the same bytes, and nothing more. */
    static void assertIdentical(Path expected, Path actual) throws IOException {
        assertThat(TreeDigest.of(actual)).isEqualTo(TreeDigest.of(expected));
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
