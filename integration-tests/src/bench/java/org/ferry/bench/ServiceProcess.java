package org.ferry.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A packaged process of the service for the benchmarks, started as a site starts it: {@code
 * bin/ferry-server} or {@code bin/ferry-mover} (their JIT settings included; JVM options through
 * {@code FERRY_JAVA_OPTS}), with a REST client for the server. Its output goes to a log file.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("started on port (\\d+)");

    private final Process process;
    private final Path home;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private final String token;

    private ServiceProcess(Process process, Path home, int port, String token) {
        this.process = process;
        this.home = home;
        this.port = port;
        this.token = token;
    }

    /**
     * Starts ferry-server with FERRY_HOME {@code home} and waits until it serves.
     *
     * @param jvmOptions e.g. {@code -Xmx256m}
     * @param arguments Spring arguments
     */
    static ServiceProcess server(Path repoRoot, Path home, Path log, List<String> jvmOptions, List<String> arguments)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        jar(repoRoot, "webapp", "-exec.jar"); // fails early with what to build
        // bin/ferry-server, as a site runs it (its JIT settings included)
        List<String> command = new ArrayList<>();
        command.add(repoRoot.resolve("bin").resolve("ferry-server").toString());
        command.add("--server.port=0");
        command.addAll(arguments);
        Process process = start(
                command, Map.of("FERRY_HOME", home.toString(), "FERRY_JAVA_OPTS", String.join(" ", jvmOptions)), log);
        for (int i = 0; i < 1200; i++) {
            Matcher matcher = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
            if (matcher.find()) {
                return new ServiceProcess(
                        process,
                        home,
                        Integer.parseInt(matcher.group(1)),
                        Files.readString(home.resolve("token")).trim());
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("ferry-server exited:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("ferry-server did not start:\n" + Files.readString(log));
    }

    /** Starts a ferry-mover and waits until it runs. */
    static ServiceProcess mover(Path repoRoot, Path log, List<String> arguments)
            throws IOException, InterruptedException {
        jar(repoRoot, "mover-netty", "-all.jar"); // fails early with what to build
        List<String> command = new ArrayList<>(
                List.of(repoRoot.resolve("bin").resolve("ferry-mover").toString()));
        command.addAll(arguments);
        Process process = start(command, Map.of(), log);
        for (int i = 0; i < 600; i++) {
            if (Files.readString(log, StandardCharsets.UTF_8).contains(" started")) {
                return new ServiceProcess(process, null, -1, null);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("ferry-mover exited:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("ferry-mover did not start:\n" + Files.readString(log));
    }

    private static Process start(List<String> command, Map<String, String> environment, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    static Path jar(Path repoRoot, String module, String suffix) throws IOException {
        Path target = repoRoot.resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no *" + suffix + " in " + target));
        }
    }

    /** @return the server's FERRY_HOME */
    Path home() {
        return home;
    }

    /** @return {@code http://127.0.0.1:PORT} */
    String apiUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** @return the process id (jcmd, /proc) */
    long pid() {
        return process.pid();
    }

    /** @return user plus system CPU seconds the process has used, from /proc */
    double cpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks / 100.0; // USER_HZ is 100 on Linux
    }

    /** GET; @return the JSON body */
    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(apiUrl() + path)).GET());
    }

    /** POST a JSON body; @return the JSON answer */
    JsonNode post(String path, Object body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(apiUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))));
    }

    private JsonNode send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                request.header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException(response.statusCode() + " " + response.body());
        }
        return json.readTree(response.body());
    }

    /** Registers an anonymous endpoint on 127.0.0.1. */
    void endpoint(String name, int gridFtpPort) throws IOException, InterruptedException {
        post("/v0.10/endpoint", Map.of("canonical_name", name, "url", "ftp://127.0.0.1:" + gridFtpPort));
    }

    /** @return a transfer document of one item */
    static Map<String, Object> transfer(String source, String destination, String from, String to, boolean recursive) {
        return Map.of(
                "DATA_TYPE",
                "transfer",
                "source_endpoint",
                source,
                "destination_endpoint",
                destination,
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        from,
                        "destination_path",
                        to,
                        "recursive",
                        recursive)));
    }

    /** Polls the task every {@code pollMillis} until it ends; @return the ended task */
    JsonNode awaitEnd(String taskId, long pollMillis, Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode task = get("/v0.10/task/" + taskId);
            if (!"ACTIVE".equals(task.get("status").asString())) {
                return task;
            }
            Thread.sleep(pollMillis);
        }
        throw new IllegalStateException("task " + taskId + " still ACTIVE after " + limit);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
