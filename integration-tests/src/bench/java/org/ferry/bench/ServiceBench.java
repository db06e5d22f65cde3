package org.ferry.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ferry.it.infra.KafkaContainers;
import org.ferry.testing.PostgresContainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import tools.jackson.databind.JsonNode;

/**
 * The whole service (ferry-server, its scheduler and work queue, movers, two ferry-gridftp
 * endpoints), measured from the REST API or the {@code ferry} CLI, as a user would see it, across
 * three hosts that are Linux network namespaces on one bridge ({@link NamespaceHosts}): the source
 * endpoints (ferry-gridftp and globus-gridftp-server) on {@code source}, the destination ones on
 * {@code destination}, ferry-server, the ferry-movers, the CLI and {@code globus-url-copy} on {@code
 * client}; traffic only to the namespaces' own addresses. The PostgreSQL and Kafka containers stay
 * where Docker publishes them (this machine's 127.0.0.1); the client host reaches them through a
 * {@link LoopbackRelay} (its 127.0.0.1:PORT, a UNIX socket, this JVM, 127.0.0.1:PORT here), and this
 * JVM reaches the server's REST API the same way. Sections ({@code --cases} chooses by name):
 *
 * <ul>
 *   <li>{@code overhead-embedded}, {@code overhead-kafka}: per-request overhead: submit a 1-byte
 *       transfer and poll until SUCCEEDED, 100 times one after another (after 10 untimed), p50 and
 *       p99, on the embedded default and on Kafka with one ferry-mover; the target p50 under 50 ms
 *       embedded (Globus Online's 2.73 s per request, CACM 2012, is a figure from a paper, printed
 *       as a note, not as a peer);
 *   <li>{@code dispatch}: chunk dispatch rate on Kafka: a task of 3,000 one-byte files in chunks of
 *       10 files, chunks per second from submit to SUCCEEDED, with 1 and with 3 ferry-movers;
 *   <li>{@code small-embedded}, {@code small-postgres}, {@code small-kafka}: 5,000 files of 50 KiB
 *       (REST submit to SUCCEEDED, and {@code ferry transfer --wait}, or {@code ferry transfer} then
 *       {@code ferry wait} where the CLI has no {@code --wait}) against {@code globus-url-copy -r -cd
 *       -pp} between two globus-gridftp-servers, all on tmpfs (the protocol is the cost, not the
 *       disk); ferry-server on H2 (embedded), on PostgreSQL, and on PostgreSQL-less Kafka with two
 *       ferry-movers. Both sides get one untimed pass first; then {@code --repeat} rounds, Ferry first
 *       in odd rounds and the peer first in even ones; best and median reported. Targets (issue 34):
 *       REST at least 1.5x the peer, the CLI at least 1.0x, embedded.
 * </ul>
 *
 * <p>{@code FERRY_BENCH_SERVER_OPTS} adds JVM options to every ferry-server (e.g. a flight recording).
 */
final class ServiceBench {

    private static final String PEER = "globus-url-copy -r -cd -pp, two globus-gridftp-servers";

    private final BenchOptions options;
    private final ResultTable table;
    private final Path logs;

    ServiceBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
        this.logs = options.outputDirectory().resolve("logs");
    }

    /** The three hosts, the endpoints on them, and the relays' directory. */
    private record Lan(
            NamespaceHosts.Host source,
            NamespaceHosts.Host destination,
            NamespaceHosts.Host client,
            FerryServer ferrySource,
            FerryServer ferryDestination,
            GlobusServer globusSource,
            GlobusServer globusDestination,
            Path relays) {}

    /** Starts the processes a configuration needs beside ferry-server (movers); closed after it. */
    private interface Extras {
        List<AutoCloseable> start() throws Exception;
    }

    void run() throws Exception {
        Path base = Scratch.directory(options.memoryDirectory().resolve("service"));
        // one root for both ferry-gridftp servers: the source reads it, the destination writes under runs/
        Path root = Files.createDirectories(base.resolve("root"));
        Scratch.file(root.resolve("one-byte"), 1, 1);
        Path tiny = Files.createDirectories(root.resolve("tiny"));
        for (int i = 0; i < 3000; i++) {
            Scratch.file(tiny.resolve(String.format("t%04d", i)), 1, i);
        }
        int count = options.smallFileCount();
        Path small = Files.createDirectories(root.resolve("src-" + count));
        for (int i = 0; i < count; i++) {
            Scratch.file(small.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
        }
        Files.createDirectories(root.resolve("runs"));
        Path relays = Files.createTempDirectory("ferry-relay-");
        try (NamespaceHosts hosts = NamespaceHosts.create(List.of("source", "destination", "client"))) {
            NamespaceHosts.Host source = hosts.host("source");
            NamespaceHosts.Host destination = hosts.host("destination");
            NamespaceHosts.Host client = hosts.host("client");
            table.note("service: namespaces " + NamespaceHosts.PREFIX + hosts.tag() + "-*, LAN " + NamespaceHosts.SUBNET
                    + ".0/24 on a bridge; endpoints on source (" + source.address() + ") and destination ("
                    + destination.address() + "), ferry-server, movers, CLI and globus-url-copy on client ("
                    + client.address() + "); containers reached through a loopback relay");
            try (FerryServer ferrySource =
                            FerryServer.start(options.repoRoot(), root, logs.resolve("svc-source.log"), source);
                    FerryServer ferryDestination = FerryServer.start(
                            options.repoRoot(), root, logs.resolve("svc-destination.log"), destination);
                    GlobusServer globusSource = GlobusServer.start(logs.resolve("svc-globus-1.pid"), source);
                    GlobusServer globusDestination =
                            GlobusServer.start(logs.resolve("svc-globus-2.pid"), destination)) {
                Lan lan = new Lan(
                        source,
                        destination,
                        client,
                        ferrySource,
                        ferryDestination,
                        globusSource,
                        globusDestination,
                        relays);
                sections(lan, base, root, small, count);
            }
        } finally {
            Scratch.deleteTree(relays);
            Scratch.deleteTree(root.resolve("runs"));
        }
    }

    private void sections(Lan lan, Path base, Path root, Path small, int count) throws Exception {
        if (options.runsCase("overhead-embedded")) {
            requestOverhead("embedded", lan, base, List.of(), List::of);
        }
        if (options.runsCase("small-embedded")) {
            smallFiles("embedded", "embedded", lan, base, root, small, count, List.of(), List::of);
        }
        if (options.runsCase("small-postgres")) {
            try (PostgreSQLContainer postgres = PostgresContainers.create()) {
                postgres.start();
                int port = postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT);
                try (LoopbackRelay relay = relayInto(lan, port)) {
                    smallFiles(
                            "postgres",
                            "PostgreSQL",
                            lan,
                            base,
                            root,
                            small,
                            count,
                            List.of("--spring.datasource.url=" + PostgresContainers.jdbcUrl(postgres, "ferry")),
                            List::of);
                }
            }
        }
        boolean kafkaWanted =
                options.runsCase("overhead-kafka") || options.runsCase("dispatch") || options.runsCase("small-kafka");
        if (!kafkaWanted) {
            return;
        }
        try (KafkaContainer kafka = KafkaContainers.create()) { // a fresh broker in a container
            kafka.start();
            int port = kafka.getMappedPort(9092);
            try (LoopbackRelay relay = relayInto(lan, port)) {
                List<String> kafkaArguments = List.of(
                        "--ferry.queue.type=kafka",
                        "--ferry.kafka.bootstrap-servers=" + kafka.getBootstrapServers(),
                        "--ferry.kafka.chunk-partitions=6",
                        "--ferry.transfer.max-active-chunks=6");
                if (options.runsCase("overhead-kafka")) {
                    requestOverhead(
                            "Kafka, 1 mover",
                            lan,
                            base,
                            kafkaArguments,
                            () -> List.of(mover(kafka, lan, "bench-mover-1")));
                }
                if (options.runsCase("dispatch")) {
                    double one = dispatchRate(
                            lan, base, kafkaArguments, "1", () -> List.of(mover(kafka, lan, "bench-mover-1")));
                    double three = dispatchRate(
                            lan,
                            base,
                            kafkaArguments,
                            "3",
                            () -> List.of(
                                    mover(kafka, lan, "bench-mover-1"),
                                    mover(kafka, lan, "bench-mover-2"),
                                    mover(kafka, lan, "bench-mover-3")));
                    table.add(new Result(
                            "service",
                            "chunk dispatch, Kafka, 3 movers vs 1 (300 chunks of 10 x 1 B)",
                            "chunks/s",
                            three,
                            "1 ferry-mover",
                            one,
                            Double.NaN,
                            false));
                }
                if (options.runsCase("small-kafka")) {
                    smallFiles(
                            "kafka",
                            "Kafka, 2 movers",
                            lan,
                            base,
                            root,
                            small,
                            count,
                            kafkaArguments,
                            () -> List.of(mover(kafka, lan, "bench-mover-1"), mover(kafka, lan, "bench-mover-2")));
                }
            }
        }
    }

    private LoopbackRelay relayInto(Lan lan, int port) throws IOException, InterruptedException {
        return LoopbackRelay.into(lan.client(), port, lan.relays(), logs.resolve("svc-relay-" + port + ".log"));
    }

    private ServiceProcess mover(KafkaContainer kafka, Lan lan, String name) throws IOException, InterruptedException {
        return ServiceProcess.mover(
                options.repoRoot(),
                logs.resolve(name + ".log"),
                List.of("--bootstrap-servers", kafka.getBootstrapServers(), "--name", name, "--chunks", "2"),
                lan.client());
    }

    private ServiceProcess server(Lan lan, Path home, String log, List<String> arguments)
            throws IOException, InterruptedException {
        Scratch.deleteTree(home);
        ServiceProcess server = ServiceProcess.server(
                options.repoRoot(),
                home,
                logs.resolve(log),
                ServiceProcess.benchServerOptions(),
                arguments,
                lan.client(),
                lan.relays());
        try {
            server.endpoint(
                    "admin#src", lan.source().address(), lan.ferrySource().port());
            server.endpoint(
                    "admin#dst",
                    lan.destination().address(),
                    lan.ferryDestination().port());
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static void closeAll(List<AutoCloseable> started) throws Exception {
        Exception first = null;
        for (AutoCloseable closeable : started) {
            try {
                closeable.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void requestOverhead(String scenario, Lan lan, Path base, List<String> arguments, Extras extras)
            throws Exception {
        Path home = base.resolve("home-" + scenario.replaceAll("[^a-z0-9]+", "-"));
        List<AutoCloseable> started = new ArrayList<>();
        try (ServiceProcess server = server(lan, home, "svc-server-" + home.getFileName() + ".log", arguments)) {
            started.addAll(extras.start());
            long first = 0;
            double[] millis = new double[100];
            for (int i = -10; i < 100; i++) {
                long start = System.nanoTime();
                String taskId = server.post(
                                "/v0.10/transfer",
                                ServiceProcess.transfer("admin#src", "admin#dst", "/one-byte", "/runs/req/" + i, false))
                        .get("task_id")
                        .asString();
                JsonNode task = server.awaitEnd(taskId, 2, Duration.ofSeconds(60));
                long elapsed = System.nanoTime() - start;
                if (!"SUCCEEDED".equals(task.get("status").asString())) {
                    throw new IllegalStateException("request " + i + " ended " + task);
                }
                if (i == -10) {
                    first = elapsed;
                }
                if (i >= 0) {
                    millis[i] = elapsed / 1e6;
                }
            }
            Arrays.sort(millis);
            double p50 = millis[49];
            double p99 = millis[98];
            // no peer measured here: Globus Online's 2.73 s per request (CACM 2012) is a figure from a
            // paper, given in a note, not a ratio
            table.add(new Result(
                    "service",
                    "1-byte request, submit to SUCCEEDED, p50, " + scenario,
                    "ms",
                    p50,
                    "-",
                    Double.NaN,
                    Double.NaN,
                    true));
            table.add(new Result("service", "same, p99, " + scenario, "ms", p99, "-", Double.NaN, Double.NaN, true));
            if (scenario.equals("embedded")) {
                table.note(String.format(
                        Locale.ROOT,
                        "service embedded: target p50 < 50 ms: %s (p50 %.1f ms); literature, not measured here:"
                                + " Globus Online (CACM 2012), 2.73 s per 1-byte scp request over SSH",
                        p50 < 50 ? "met" : "NOT met",
                        p50));
            }
            table.note(String.format(
                    Locale.ROOT,
                    "service %s: first request after the start %.1f ms, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    scenario,
                    first / 1e6,
                    p50,
                    p99,
                    millis[99]));
        } finally {
            closeAll(started);
            Scratch.deleteTree(options.memoryDirectory().resolve("service").resolve("root/runs/req"));
        }
    }

    private double dispatchRate(Lan lan, Path base, List<String> kafkaArguments, String movers, Extras extras)
            throws Exception {
        Path home = base.resolve("home-dispatch-" + movers);
        List<String> arguments = new ArrayList<>(kafkaArguments);
        arguments.add("--ferry.transfer.chunk-max-files=10");
        List<AutoCloseable> started = new ArrayList<>();
        try (ServiceProcess server = server(lan, home, "svc-dispatch-" + movers + ".log", arguments)) {
            started.addAll(extras.start());
            // one untimed task first: the movers join the group, the JIT warms up
            server.transferAndAwait("/tiny", "/runs/warm-" + movers, 20, Duration.ofMinutes(10));
            long start = System.nanoTime();
            JsonNode task = server.transferAndAwait("/tiny", "/runs/run-" + movers, 20, Duration.ofMinutes(10));
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!"SUCCEEDED".equals(task.get("status").asString())) {
                throw new IllegalStateException("dispatch task ended " + task);
            }
            table.note(
                    String.format(Locale.ROOT, "service dispatch, %s mover(s): 300 chunks in %.2f s", movers, seconds));
            return 300 / seconds;
        } finally {
            closeAll(started);
        }
    }

    /** One side's seconds per round. */
    private static final class Times {
        private final List<Double> rates = new ArrayList<>();

        void add(int files, double seconds) {
            rates.add(files / seconds);
        }

        double best() {
            return rates.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }

        double median() {
            double[] sorted =
                    rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder();
            for (double rate : rates) {
                text.append(text.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", rate));
            }
            return text.toString();
        }
    }

    private void smallFiles(
            String name,
            String label,
            Lan lan,
            Path base,
            Path root,
            Path small,
            int count,
            List<String> arguments,
            Extras extras)
            throws Exception {
        ServiceProcess.jar(options.repoRoot(), "cli", "-all.jar"); // fails early with what to build
        Path runs = root.resolve("runs");
        String from = "/" + small.getFileName();
        Path home = base.resolve("home-small-" + name);
        List<AutoCloseable> started = new ArrayList<>();
        try (ServiceProcess server = server(lan, home, "svc-small-" + name + "-server.log", arguments)) {
            started.addAll(extras.start());
            Cli cli = new Cli(lan.client(), home, server.localApiUrl());
            Times rest = new Times();
            Times command = new Times();
            Times globus = new Times();
            // both sides warmed alike: one untimed pass each (JIT, first sessions, page cache)
            restTransfer(server, from, runs, "warm-rest-" + name, count);
            cli.transfer(from, runs, "warm-cli-" + name, count);
            globusTransfer(lan, small, runs, "warm-globus-" + name, count);
            for (int round = 1; round <= options.repeat(); round++) {
                // the order turned every round: Ferry first in odd rounds, the peer first in even ones
                boolean ferryFirst = round % 2 == 1;
                if (!ferryFirst) {
                    globus.add(count, globusTransfer(lan, small, runs, "globus-" + name + "-" + round, count));
                }
                rest.add(count, restTransfer(server, from, runs, "rest-" + name + "-" + round, count));
                command.add(count, cli.transfer(from, runs, "cli-" + name + "-" + round, count));
                if (ferryFirst) {
                    globus.add(count, globusTransfer(lan, small, runs, "globus-" + name + "-" + round, count));
                }
            }
            boolean embedded = name.equals("embedded");
            String rounds = " (best of " + options.repeat() + ")";
            table.add(new Result(
                    "service",
                    count + " x 50 KiB, " + label + ", REST submit to SUCCEEDED" + rounds,
                    "files/s",
                    rest.best(),
                    PEER,
                    globus.best(),
                    embedded ? 1.5 : Double.NaN,
                    false));
            table.add(new Result(
                    "service",
                    count + " x 50 KiB, " + label + ", " + cli.what() + rounds,
                    "files/s",
                    command.best(),
                    PEER,
                    globus.best(),
                    embedded ? 1.0 : Double.NaN,
                    false));
            table.note(String.format(
                    Locale.ROOT,
                    "service small %s, files/s per round (Ferry first in odd rounds): REST %s (median %.0f), CLI %s"
                            + " (median %.0f), globus-url-copy %s (median %.0f); median ratios REST %.2f, CLI %.2f",
                    name,
                    rest,
                    rest.median(),
                    command,
                    command.median(),
                    globus,
                    globus.median(),
                    rest.median() / globus.median(),
                    command.median() / globus.median()));
        } finally {
            closeAll(started);
        }
    }

    /** @return seconds from the REST submit to SUCCEEDED; the copy is checked and removed afterwards */
    private double restTransfer(ServiceProcess server, String from, Path runs, String to, int count) throws Exception {
        long start = System.nanoTime();
        JsonNode task = server.transferAndAwait(from, "/runs/" + to, 20, Duration.ofMinutes(30));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!"SUCCEEDED".equals(task.get("status").asString())) {
            throw new IllegalStateException("small-files task ended " + task);
        }
        checkAndRemove(runs.resolve(to), count);
        return seconds;
    }

    /** @return seconds of {@code globus-url-copy -r -cd -pp}, third party, run on the client host */
    private double globusTransfer(Lan lan, Path source, Path runs, String to, int count) throws Exception {
        Path target = Scratch.writableByGlobus(runs.resolve(to));
        long elapsed = Command.check(
                        lan.client()
                                .exec(List.of(
                                        "globus-url-copy",
                                        "-r",
                                        "-cd",
                                        "-pp",
                                        lan.globusSource().url() + source + "/",
                                        lan.globusDestination().url() + target + "/")),
                        1800)
                .elapsedNanos();
        checkAndRemove(target, count);
        return elapsed / 1e9;
    }

    /**
     * The {@code ferry} CLI on the client host: {@code ferry transfer --wait} (one JVM start) where
     * the CLI has it, else {@code ferry transfer} then {@code ferry wait} (two).
     */
    private final class Cli {
        private final NamespaceHosts.Host host;
        private final Map<String, String> env;
        private final String ferry;
        private final boolean oneStart;

        Cli(NamespaceHosts.Host host, Path home, String api) throws Exception {
            this.host = host;
            this.env = Map.of("FERRY_HOME", home.toString(), "FERRY_API", api);
            this.ferry = options.repoRoot().resolve("bin").resolve("ferry").toString();
            this.oneStart = run(List.of(ferry, "transfer", "--help")).contains("--wait");
        }

        String what() {
            return oneStart
                    ? "ferry transfer --wait --no-verify-checksum (one JVM start, submit to SUCCEEDED)"
                    : "ferry transfer --no-verify-checksum + ferry wait (two JVM starts, submit to SUCCEEDED)";
        }

        /** @return seconds from the start of the CLI to the end of the wait; the copy is checked afterwards */
        double transfer(String from, Path runs, String to, int count) throws Exception {
            List<String> submit = new ArrayList<>(List.of(
                    ferry,
                    "-F",
                    "unix",
                    "transfer",
                    "admin#src:" + from,
                    "admin#dst:/runs/" + to,
                    "-r",
                    // the CLI verifies checksums by default (globus-cli's habit); globus-url-copy does not
                    "--no-verify-checksum"));
            if (oneStart) {
                submit.addAll(List.of("--wait", "--polling-interval", "0.05"));
            }
            long start = System.nanoTime();
            String output = run(submit);
            if (!oneStart) {
                String taskId = output.trim();
                run(List.of(ferry, "-F", "unix", "wait", taskId, "--polling-interval", "0.05"));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            checkAndRemove(runs.resolve(to), count);
            return seconds;
        }

        private String run(List<String> command) throws Exception {
            ProcessBuilder builder = new ProcessBuilder(host.exec(command)).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
            return output;
        }
    }

    /** Checks that {@code destination} holds {@code count} complete files, then removes it (tmpfs room). */
    private void checkAndRemove(Path destination, int count) throws IOException {
        requireCopy(destination, count);
        Scratch.deleteTree(destination);
    }

    private void requireCopy(Path destination, int count) throws IOException {
        try (var files = Files.list(destination)) {
            long complete = files.filter(p -> {
                        try {
                            return Files.size(p) == options.smallFileBytes();
                        } catch (IOException e) {
                            return false;
                        }
                    })
                    .count();
            if (complete != count) {
                throw new IllegalStateException(destination + " has " + complete + " complete files of " + count);
            }
        }
    }
}
