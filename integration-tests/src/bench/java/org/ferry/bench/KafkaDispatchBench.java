package org.ferry.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.ferry.it.infra.KafkaContainers;
import org.testcontainers.kafka.KafkaContainer;
import tools.jackson.databind.JsonNode;

/**
 * Chunk dispatch on Kafka alone (issue 34 item 1), the same set-up as {@link ServiceBench}'s
 * dispatch rows (one broker in a container, {@code chunk-partitions=6}, {@code max-active-chunks=6},
 * ferry-movers with {@code --chunks 2}, chunks of 10 one-byte files between two ferry-gridftp
 * servers on tmpfs), without the rest of the service bench, so that builds can be compared round by
 * round: each round starts a fresh ferry-server from each {@code --repo} in turn (the order
 * alternates), runs one untimed task, then times a task of {@code --chunks} chunks from submit to
 * SUCCEEDED, once with each mover count.
 *
 * <pre>
 * java -cp ... org.ferry.bench.KafkaDispatchBench [--repo DIR]... [--movers 1,3] [--chunks 300]
 *     [--rounds 1] [--mover-chunks 2] [--out DIR]
 * </pre>
 *
 * ferry-server's extra JVM options come from {@code FERRY_BENCH_SERVER_OPTS} (e.g. a JFR recording),
 * its extra Spring arguments from {@code FERRY_BENCH_SERVER_ARGS}, the movers' JVM options from
 * {@code FERRY_JAVA_OPTS} (inherited).
 */
final class KafkaDispatchBench {

    private KafkaDispatchBench() {}

    public static void main(String[] args) throws Exception {
        List<Path> repos = new ArrayList<>();
        List<Integer> moverCounts = List.of(1, 3);
        int chunks = 300;
        int rounds = 1;
        int moverChunks = 2;
        Path out = Path.of("/dev/shm/ferry-dispatch-bench");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--repo" -> repos.add(Path.of(args[++i]).toAbsolutePath());
                case "--movers" ->
                    moverCounts = Arrays.stream(args[++i].split(","))
                            .map(Integer::parseInt)
                            .toList();
                case "--chunks" -> chunks = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--mover-chunks" -> moverChunks = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (repos.isEmpty()) {
            repos.add(Path.of("").toAbsolutePath());
        }
        List<String> serverOptions = ServiceProcess.benchServerOptions();
        Path base = Scratch.directory(out);
        Path logs = Files.createDirectories(base.resolve("logs"));
        Path sourceRoot = Files.createDirectories(base.resolve("source"));
        Path destinationRoot = Files.createDirectories(base.resolve("destination"));
        Path tiny = Files.createDirectories(sourceRoot.resolve("tiny"));
        int fileCount = chunks * 10;
        for (int i = 0; i < fileCount; i++) {
            Scratch.file(tiny.resolve(String.format("t%05d", i)), 1, i);
        }
        Path gridFtpRepo = repos.get(0);
        try (FerryServer source = FerryServer.start(gridFtpRepo, sourceRoot, logs.resolve("source.log"));
                FerryServer destination =
                        FerryServer.start(gridFtpRepo, destinationRoot, logs.resolve("destination.log"));
                KafkaContainer kafka = KafkaContainers.create()) {
            kafka.start();
            for (int round = 0; round < rounds; round++) {
                List<Path> order = new ArrayList<>(repos);
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Path repo : order) {
                    for (int movers : moverCounts) {
                        String label = repo.getFileName() + "-r" + round + "-m" + movers;
                        double rate = run(
                                repo,
                                kafka,
                                source,
                                destination,
                                base,
                                logs,
                                label,
                                movers,
                                moverChunks,
                                chunks,
                                serverOptions);
                        System.out.printf(
                                Locale.ROOT,
                                "dispatch %s round %d movers %d: %d chunks, %.1f chunks/s%n",
                                repo,
                                round,
                                movers,
                                chunks,
                                rate);
                    }
                }
            }
        }
    }

    private static double run(
            Path repo,
            KafkaContainer kafka,
            FerryServer source,
            FerryServer destination,
            Path base,
            Path logs,
            String label,
            int movers,
            int moverChunks,
            int chunks,
            List<String> serverOptions)
            throws Exception {
        Path home = base.resolve("home-" + label);
        Scratch.deleteTree(home);
        // a group and topics of the run's own: no chunk of an earlier run is left in them
        String prefix = "d" + label.replaceAll("[^A-Za-z0-9]", "");
        List<String> arguments = new ArrayList<>(List.of(
                "--ferry.queue.type=kafka",
                "--ferry.kafka.bootstrap-servers=" + kafka.getBootstrapServers(),
                "--ferry.kafka.topic-prefix=" + prefix,
                "--ferry.kafka.chunk-partitions=6",
                "--ferry.transfer.max-active-chunks=6",
                "--ferry.transfer.chunk-max-files=10"));
        String extra = System.getenv("FERRY_BENCH_SERVER_ARGS"); // e.g. a logger's level, for a profile
        if (extra != null && !extra.isBlank()) {
            arguments.addAll(Arrays.asList(extra.trim().split("\\s+")));
        }
        List<ServiceProcess> started = new ArrayList<>();
        try {
            for (int m = 1; m <= movers; m++) {
                started.add(ServiceProcess.mover(
                        repo,
                        logs.resolve("mover-" + label + "-" + m + ".log"),
                        List.of(
                                "--bootstrap-servers",
                                kafka.getBootstrapServers(),
                                "--group",
                                prefix + "-movers",
                                "--topic-prefix",
                                prefix,
                                "--name",
                                "m" + m,
                                "--chunks",
                                Integer.toString(moverChunks))));
            }
            try (ServiceProcess server = ServiceProcess.server(
                    repo, home, logs.resolve("server-" + label + ".log"), serverOptions, arguments)) {
                server.endpoint("admin#src", source.port());
                server.endpoint("admin#dst", destination.port());
                server.transferAndAwait("/tiny", "/warm-" + label, 20, Duration.ofMinutes(10));
                long start = System.nanoTime();
                JsonNode task = server.transferAndAwait("/tiny", "/run-" + label, 5, Duration.ofMinutes(10));
                double seconds = (System.nanoTime() - start) / 1e9;
                if (!"SUCCEEDED".equals(task.get("status").asString())) {
                    throw new IllegalStateException("dispatch task ended " + task);
                }
                return chunks / seconds;
            }
        } finally {
            for (ServiceProcess mover : started) {
                mover.close();
            }
        }
    }
}
