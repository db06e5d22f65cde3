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
    private final int localPort;
    private final LoopbackRelay api;

    private ServiceProcess(Process process, Path home, int port, String token) {
        this(process, home, port, token, port, null);
    }

    private ServiceProcess(Process process, Path home, int port, String token, int localPort, LoopbackRelay api) {
        this.process = process;
        this.home = home;
        this.port = port;
        this.token = token;
        this.localPort = localPort;
        this.api = api;
    }

    /** The REST port of a ferry-server in a namespace host: the namespace has nothing else listening. */
    static final int NAMESPACE_API_PORT = 8080;

    /**
     * Starts ferry-server with FERRY_HOME {@code home} and waits until it serves.
     *
     * @param jvmOptions e.g. {@code -Xmx256m}
     * @param arguments Spring arguments
     */
    static ServiceProcess server(Path repoRoot, Path home, Path log, List<String> jvmOptions, List<String> arguments)
            throws IOException, InterruptedException {
        return server(repoRoot, home, log, jvmOptions, arguments, null, null);
    }

    /**
     * Starts ferry-server with FERRY_HOME {@code home}, on a host of a {@link NamespaceHosts} or
     * here, and waits until it serves. In a namespace it listens on {@value #NAMESPACE_API_PORT} there
     * and {@link #apiUrl()} reaches it through a {@link LoopbackRelay}.
     *
     * @param on the host to run on, or null for this one
     * @param relays a directory for the relay's UNIX socket (when {@code on} is not null)
     */
    static ServiceProcess server(
            Path repoRoot,
            Path home,
            Path log,
            List<String> jvmOptions,
            List<String> arguments,
            NamespaceHosts.Host on,
            Path relays)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        jar(repoRoot, "webapp", "-exec.jar"); // fails early with what to build
        // bin/ferry-server, as a site runs it (its JIT settings included)
        List<String> command = new ArrayList<>();
        command.add(repoRoot.resolve("bin").resolve("ferry-server").toString());
        command.add("--server.port=" + (on == null ? 0 : NAMESPACE_API_PORT));
        command.addAll(arguments);
        Process process = start(
                on == null ? command : on.exec(command),
                Map.of("FERRY_HOME", home.toString(), "FERRY_JAVA_OPTS", String.join(" ", jvmOptions)),
                log);
        for (int i = 0; i < 1200; i++) {
            Matcher matcher = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
            if (matcher.find()) {
                int local = Integer.parseInt(matcher.group(1));
                String token = Files.readString(home.resolve("token")).trim();
                if (on == null) {
                    return new ServiceProcess(process, home, local, token);
                }
                LoopbackRelay api;
                try {
                    api = LoopbackRelay.outOf(on, local, relays, log.resolveSibling(log.getFileName() + ".relay"));
                } catch (IOException | RuntimeException e) {
                    process.destroyForcibly();
                    throw e;
                }
                return new ServiceProcess(process, home, api.port(), token, local, api);
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
        return mover(repoRoot, log, arguments, null);
    }

    /** Starts a ferry-mover on a host of a {@link NamespaceHosts} (or here, if null) and waits until it runs. */
    static ServiceProcess mover(Path repoRoot, Path log, List<String> arguments, NamespaceHosts.Host on)
            throws IOException, InterruptedException {
        jar(repoRoot, "mover-netty", "-all.jar"); // fails early with what to build
        List<String> command = new ArrayList<>(
                List.of(repoRoot.resolve("bin").resolve("ferry-mover").toString()));
        command.addAll(arguments);
        Process process = start(on == null ? command : on.exec(command), Map.of(), log);
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

    /** @return {@code http://127.0.0.1:PORT}, as this JVM reaches the API (through the relay if in a namespace) */
    String apiUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** @return the API's URL on the server's own host (for a CLI run beside it in its namespace) */
    String localApiUrl() {
        return "http://127.0.0.1:" + localPort;
    }

    /**
     * @return the server's extra JVM options from {@code FERRY_BENCH_SERVER_OPTS} (split at blanks),
     *     e.g. {@code -XX:StartFlightRecording=filename=/tmp/s.jfr,settings=profile} to profile a run
     */
    static List<String> benchServerOptions() {
        String options = System.getenv("FERRY_BENCH_SERVER_OPTS");
        return options == null || options.isBlank()
                ? List.of()
                : List.of(options.trim().split("\\s+"));
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
        endpoint(name, "127.0.0.1", gridFtpPort);
    }

    /** Registers an anonymous endpoint at {@code host} (an IPv4 address). */
    void endpoint(String name, String host, int gridFtpPort) throws IOException, InterruptedException {
        post("/v0.10/endpoint", Map.of("canonical_name", name, "url", "ftp://" + host + ":" + gridFtpPort));
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

    /**
     * Submits a recursive transfer from {@code admin#src} to {@code admin#dst} and polls it every
     * {@code pollMillis} until it ends.
     *
     * @return the ended task
     */
    JsonNode transferAndAwait(String from, String to, long pollMillis, Duration limit)
            throws IOException, InterruptedException {
        String taskId = post("/v0.10/transfer", transfer("admin#src", "admin#dst", from, to, true))
                .get("task_id")
                .asString();
        return awaitEnd(taskId, pollMillis, limit);
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
    public void close() throws InterruptedException, IOException {
        if (api != null) {
            api.close();
        }
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
