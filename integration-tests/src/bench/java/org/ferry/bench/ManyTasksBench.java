package org.ferry.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.ferry.it.infra.KafkaContainers;
import org.ferry.testing.PostgresContainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import tools.jackson.databind.JsonNode;

/**
 * Many small tasks at once (issue 34, item 2), as a portal would send them: {@value #CLIENTS}
 * clients each submit {@value #TASKS_PER_CLIENT} one-file transfers (1 KiB, between two
 * ferry-gridftp servers on tmpfs) at once over REST, then every {@value #POLL_MILLIS} ms ask for
 * those of their tasks that have ended, in one task list request ({@code filter=task_id:...
 * /status:INACTIVE,SUCCEEDED,FAILED}), until all have: one request per client and poll, not one per task,
 * so that the clients (on the same cores as the server) load the API no more than a portal would.
 * Per task: submission (the POST's start) to the first poll that sees SUCCEEDED (so up to one poll
 * interval late); tasks per second: all tasks over the time
 * from the first POST to the last SUCCEEDED. Cases ({@code --cases}): {@code embedded} (the
 * default: H2, the in-process queue) and {@code postgres-kafka} (PostgreSQL and Kafka in containers,
 * two {@code ferry-mover}s), each in a fresh server; the first round after its start is reported too
 * (it warms the JIT), then the best of {@code --repeat} rounds. Targets: all SUCCEEDED, at least 100
 * tasks/s, p99 under 2 s. No peer: Globus has no local figure for this.
 */
final class ManyTasksBench {

    static final int CLIENTS = 32;
    static final int TASKS_PER_CLIENT = 8;
    static final long POLL_MILLIS = 100;

    private final BenchOptions options;
    private final ResultTable table;
    private final Path logs;

    ManyTasksBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
        this.logs = options.outputDirectory().resolve("logs");
    }

    void run() throws Exception {
        Path base = Scratch.directory(options.memoryDirectory().resolve("manytasks"));
        Path sourceRoot = Files.createDirectories(base.resolve("source"));
        Path destinationRoot = Files.createDirectories(base.resolve("destination"));
        Scratch.file(sourceRoot.resolve("one-kib"), 1024, 1);
        try (FerryServer source = FerryServer.start(options.repoRoot(), sourceRoot, logs.resolve("many-source.log"));
                FerryServer destination =
                        FerryServer.start(options.repoRoot(), destinationRoot, logs.resolve("many-destination.log"))) {
            if (options.runsCase("embedded")) {
                runCase("embedded", "embedded", base.resolve("home"), source, destination, List.of(), List.of());
            }
            if (options.runsCase("postgres-kafka")) {
                try (PostgreSQLContainer postgres = PostgresContainers.create();
                        KafkaContainer kafka = KafkaContainers.create()) {
                    postgres.start();
                    kafka.start();
                    List<String> arguments = List.of(
                            "--spring.datasource.url=" + PostgresContainers.jdbcUrl(postgres, "ferry"),
                            "--ferry.queue.type=kafka",
                            "--ferry.kafka.bootstrap-servers=" + kafka.getBootstrapServers(),
                            "--ferry.kafka.chunk-partitions=6");
                    List<ServiceProcess> movers = new ArrayList<>();
                    try {
                        for (String name : List.of("many-mover-1", "many-mover-2")) {
                            movers.add(ServiceProcess.mover(
                                    options.repoRoot(),
                                    logs.resolve(name + ".log"),
                                    List.of("--bootstrap-servers", kafka.getBootstrapServers(), "--name", name)));
                        }
                        runCase(
                                "postgres-kafka",
                                "PostgreSQL + Kafka, 2 movers",
                                base.resolve("home-postgres-kafka"),
                                source,
                                destination,
                                arguments,
                                movers);
                    } finally {
                        for (ServiceProcess mover : movers) {
                            mover.close();
                        }
                    }
                }
            }
        }
    }

    /**
     * One case: a fresh ferry-server (its own home) with {@code arguments}, a first round after its
     * start, then {@code --repeat} rounds, the best reported.
     */
    private void runCase(
            String name,
            String label,
            Path home,
            FerryServer source,
            FerryServer destination,
            List<String> arguments,
            List<ServiceProcess> movers)
            throws Exception {
        Scratch.deleteTree(home);
        String serverLog = name.equals("embedded") ? "many-server.log" : "many-server-" + name + ".log";
        try (ServiceProcess server = ServiceProcess.server(
                options.repoRoot(), home, logs.resolve(serverLog), ServiceProcess.benchServerOptions(), arguments)) {
            server.endpoint("admin#src", source.port());
            server.endpoint("admin#dst", destination.port());
            Round first = round(server, name + "-first");
            Round best = null;
            for (int r = 0; r < Math.max(1, options.repeat()); r++) {
                Round round = round(server, name + "-r" + r);
                if (best == null || round.tasksPerSecond() > best.tasksPerSecond()) {
                    best = round;
                }
            }
            String what = CLIENTS + " clients x " + TASKS_PER_CLIENT + " one-file tasks, " + label;
            table.add(new Result(
                    "manytasks",
                    what + ", tasks/s, best of " + options.repeat(),
                    "tasks/s",
                    best.tasksPerSecond(),
                    "target",
                    100,
                    Double.NaN,
                    false));
            table.add(new Result(
                    "manytasks",
                    what + ", submit to SUCCEEDED p50",
                    "ms",
                    best.p50(),
                    "target",
                    Double.NaN,
                    Double.NaN,
                    true));
            table.add(new Result(
                    "manytasks",
                    what + ", submit to SUCCEEDED p99",
                    "ms",
                    best.p99(),
                    "target",
                    2000,
                    Double.NaN,
                    true));
            table.note(String.format(
                    Locale.ROOT,
                    "manytasks %s: first round after the start %.1f tasks/s, p50 %.0f ms, p99 %.0f ms, %d of %d"
                            + " SUCCEEDED; best round %.1f tasks/s, p50 %.0f ms, p99 %.0f ms, %d SUCCEEDED",
                    name,
                    first.tasksPerSecond(),
                    first.p50(),
                    first.p99(),
                    first.succeeded(),
                    CLIENTS * TASKS_PER_CLIENT,
                    best.tasksPerSecond(),
                    best.p50(),
                    best.p99(),
                    best.succeeded()));
        }
    }

    private record Round(double tasksPerSecond, double p50, double p99, int succeeded) {}

    /** One round: every client submits its tasks at once, then polls them to their end. */
    private Round round(ServiceProcess server, String name) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long start = System.nanoTime();
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                results.add(clients.submit(() -> client(server, name + "/c" + client)));
            }
            double[] millis = new double[CLIENTS * TASKS_PER_CLIENT];
            int n = 0;
            int succeeded = 0;
            long last = start;
            for (Future<long[]> result : results) {
                long[] ends = result.get(); // pairs: submitted, ended (nanos; negative end: not SUCCEEDED)
                for (int i = 0; i < ends.length; i += 2) {
                    long end = Math.abs(ends[i + 1]);
                    millis[n++] = (end - ends[i]) / 1e6;
                    last = Math.max(last, end);
                    if (ends[i + 1] > 0) {
                        succeeded++;
                    }
                }
            }
            Arrays.sort(millis);
            double seconds = (last - start) / 1e9;
            Round round = new Round(
                    millis.length / seconds,
                    millis[millis.length / 2],
                    millis[(int) Math.ceil(millis.length * 0.99) - 1],
                    succeeded);
            System.out.printf(
                    Locale.ROOT,
                    "manytasks %s: %.1f tasks/s, p50 %.0f ms, p99 %.0f ms, max %.0f ms, %d SUCCEEDED%n",
                    name,
                    round.tasksPerSecond(),
                    round.p50(),
                    round.p99(),
                    millis[millis.length - 1],
                    succeeded);
            return round;
        } finally {
            clients.shutdownNow();
        }
    }

    /** @return submitted/ended nano times per task; an end is negated if the task did not succeed */
    private static long[] client(ServiceProcess server, String prefix) throws Exception {
        long[] times = new long[TASKS_PER_CLIENT * 2];
        String[] ids = new String[TASKS_PER_CLIENT];
        for (int t = 0; t < TASKS_PER_CLIENT; t++) {
            times[2 * t] = System.nanoTime();
            ids[t] = server.post(
                            "/v0.10/transfer",
                            ServiceProcess.transfer(
                                    "admin#src", "admin#dst", "/one-kib", "/" + prefix + "/" + t, false))
                    .get("task_id")
                    .asString();
        }
        String ended = "/v0.10/task_list?limit=" + TASKS_PER_CLIENT + "&filter=task_id:" + String.join(",", ids)
                + "/status:INACTIVE,SUCCEEDED,FAILED"; // INACTIVE: stalled, counted as not SUCCEEDED
        int open = TASKS_PER_CLIENT;
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (open > 0 && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            JsonNode page = server.get(ended);
            long now = System.nanoTime();
            for (JsonNode task : page.get("DATA")) {
                int t = Arrays.asList(ids).indexOf(task.get("task_id").asString());
                if (times[2 * t + 1] == 0) {
                    times[2 * t + 1] = "SUCCEEDED".equals(task.get("status").asString()) ? now : -now;
                    open--;
                }
            }
        }
        for (int t = 0; t < TASKS_PER_CLIENT; t++) {
            if (times[2 * t + 1] == 0) {
                times[2 * t + 1] = -System.nanoTime();
            }
        }
        return times;
    }
}
