package org.ferry.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ferry.it.infra.KafkaContainers;
import org.ferry.testing.PostgresContainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import tools.jackson.databind.JsonNode;

/**
 * A task of {@code --million-files} (1,000,000) one-byte files, 1,000 per directory, between two
 * ferry-gridftp servers on tmpfs, through ferry-server with its heap capped at 256 MiB: it plans and
 * runs only because file rows stream through the database in pages. Two cases ({@code --cases}
 * chooses by name): {@code embedded} (the default: H2, the in-process mover) and
 * {@code postgres-kafka} (PostgreSQL and Kafka in containers, two {@code ferry-mover}s). The
 * source endpoint, the destination endpoint and ferry-server (with its movers) are on three
 * network namespaces on one bridge ({@link NamespaceHosts}); the containers stay on this machine's
 * 127.0.0.1 and the server's namespace reaches them through a {@link LoopbackRelay}, as this JVM
 * reaches the REST API. {@code FERRY_BENCH_SERVER_OPTS} adds JVM options to ferry-server.
 *
 * <p>Reports the planning rate (crawl and rows written), the whole task's rate (submit to
 * SUCCEEDED), the server's heap after the first collection past half way (read afterwards from the
 * server's own GC log: nothing is forced inside the timed run) and its CPU time per file. After the
 * timed part the destination is checked file by file: every expected file present, one byte, the
 * source's byte, and no other file. The source tree is built once per count and kept beside the
 * scratch directory ({@code <shm>-million/src-N}, a marker {@code src-N.count} holding the count)
 * for later runs. No peer runs this; the figures stand alone.
 */
final class MillionFilesBench {

    private static final int PER_DIRECTORY = 1000;

    /**
     * A pause line of {@code -Xlog:gc:...:timemillis}, e.g. {@code [1764384000123ms] GC(5) Pause
     * Young (Normal) (G1 Evacuation Pause) 100M->20M(256M) 5.123ms}: its wall-clock time and the
     * heap in use after it.
     */
    private static final Pattern GC_PAUSE =
            Pattern.compile("^\\[(\\d+)ms\\] GC\\(\\d+\\) Pause .* (\\d+)M->(\\d+)M\\(");

    private final BenchOptions options;
    private final ResultTable table;

    MillionFilesBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    void run() throws Exception {
        int count = options.millionFiles();
        Path source = sourceTree(count);
        Path base = Scratch.directory(options.memoryDirectory().resolve("million"));
        Path logs = options.outputDirectory().resolve("logs");
        Path relays = Files.createTempDirectory("ferry-relay-");
        try (NamespaceHosts hosts = NamespaceHosts.create(List.of("source", "destination", "client"))) {
            Lan lan = new Lan(hosts.host("source"), hosts.host("destination"), hosts.host("client"), relays);
            table.note("million: namespaces " + NamespaceHosts.PREFIX + hosts.tag() + "-*: source endpoint on "
                    + lan.source().address() + ", destination on "
                    + lan.destination().address()
                    + ", ferry-server and movers on " + lan.client().address()
                    + "; containers reached through a loopback relay");
            if (wanted("embedded")) {
                runCase("embedded", "embedded", count, source, base, lan, List.of(), () -> List.of());
            }
            if (wanted("postgres-kafka")) {
                try (PostgreSQLContainer postgres = PostgresContainers.create();
                        KafkaContainer kafka = KafkaContainers.create()) {
                    postgres.start();
                    kafka.start();
                    List<String> arguments = List.of(
                            "--spring.datasource.url=" + PostgresContainers.jdbcUrl(postgres, "ferry"),
                            "--ferry.queue.type=kafka",
                            "--ferry.kafka.bootstrap-servers=" + kafka.getBootstrapServers(),
                            "--ferry.kafka.chunk-partitions=6");
                    int postgresPort = postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT);
                    int kafkaPort = kafka.getMappedPort(9092);
                    try (LoopbackRelay toPostgres = LoopbackRelay.into(
                                    lan.client(),
                                    postgresPort,
                                    relays,
                                    logs.resolve("million-relay-" + postgresPort + ".log"));
                            LoopbackRelay toKafka = LoopbackRelay.into(
                                    lan.client(),
                                    kafkaPort,
                                    relays,
                                    logs.resolve("million-relay-" + kafkaPort + ".log"))) {
                        runCase(
                                "postgres-kafka",
                                "PostgreSQL + Kafka, 2 movers",
                                count,
                                source,
                                base,
                                lan,
                                arguments,
                                () -> {
                                    List<ServiceProcess> movers = new ArrayList<>();
                                    for (String name : List.of("million-mover-1", "million-mover-2")) {
                                        movers.add(ServiceProcess.mover(
                                                options.repoRoot(),
                                                logs.resolve(name + ".log"),
                                                List.of(
                                                        "--bootstrap-servers",
                                                        kafka.getBootstrapServers(),
                                                        "--name",
                                                        name),
                                                lan.client()));
                                    }
                                    return movers;
                                });
                    }
                }
            }
        } finally {
            Scratch.deleteTree(relays);
        }
    }

    /** The three hosts (network namespaces on one bridge) and the relays' directory. */
    private record Lan(
            NamespaceHosts.Host source, NamespaceHosts.Host destination, NamespaceHosts.Host client, Path relays) {}

    private boolean wanted(String name) {
        return options.cases() == null || options.cases().matcher(name).find();
    }

    /** Starts the processes a case needs beside ferry-server (movers); closed after the case. */
    private interface Extras {
        List<ServiceProcess> start() throws Exception;
    }

    private void runCase(
            String name,
            String label,
            int count,
            Path source,
            Path base,
            Lan lan,
            List<String> serverArguments,
            Extras extras)
            throws Exception {
        Path destination = base.resolve("dst");
        Scratch.deleteTree(destination);
        Files.createDirectories(destination);
        Path home = base.resolve("home-" + name);
        Scratch.deleteTree(home);
        Path logs = options.outputDirectory().resolve("logs");
        Path gcLog = logs.resolve("million-" + name + "-server-gc.log");
        Files.deleteIfExists(gcLog);
        List<String> arguments = new ArrayList<>(serverArguments);
        arguments.add("--ferry.transfer.progress-interval-seconds=30");
        List<ServiceProcess> started = new ArrayList<>();
        // the GC's own log: the heap after each collection, read after the run
        List<String> jvmOptions = new ArrayList<>(List.of("-Xmx256m", "-Xlog:gc:file=" + gcLog + ":timemillis"));
        jvmOptions.addAll(ServiceProcess.benchServerOptions());
        try (FerryServer from =
                        FerryServer.start(options.repoRoot(), source, logs.resolve("million-src.log"), lan.source());
                FerryServer to = FerryServer.start(
                        options.repoRoot(), destination, logs.resolve("million-dst.log"), lan.destination());
                ServiceProcess server = ServiceProcess.server(
                        options.repoRoot(),
                        home,
                        logs.resolve("million-" + name + "-server.log"),
                        jvmOptions,
                        arguments,
                        lan.client(),
                        lan.relays())) {
            started.addAll(extras.start());
            server.endpoint("admin#src", lan.source().address(), from.port());
            server.endpoint("admin#dst", lan.destination().address(), to.port());
            double cpuBefore = server.cpuSeconds();
            long start = System.nanoTime();
            String taskId = server.post(
                            "/v0.10/transfer", ServiceProcess.transfer("admin#src", "admin#dst", "/", "/copy", true))
                    .get("task_id")
                    .asString();
            double planned = 0;
            long halfWayMillis = -1;
            JsonNode task;
            while (true) {
                task = server.get("/v0.10/task/" + taskId);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (planned == 0 && task.get("files").asLong() >= count) {
                    planned = seconds;
                }
                if (halfWayMillis < 0 && task.get("files_transferred").asLong() >= count / 2) {
                    halfWayMillis = System.currentTimeMillis();
                }
                if (!"ACTIVE".equals(task.get("status").asString())) {
                    break;
                }
                if (seconds > Duration.ofHours(2).toSeconds()) {
                    throw new IllegalStateException("million-file task still ACTIVE: " + task);
                }
                Thread.sleep(1000);
            }
            double total = (System.nanoTime() - start) / 1e9;
            double cpu = server.cpuSeconds() - cpuBefore;
            // the timed part ends here
            if (!"SUCCEEDED".equals(task.get("status").asString())
                    || task.get("files_transferred").asLong() != count) {
                throw new IllegalStateException("million-file task ended " + task);
            }
            long checked = checkDestination(destination.resolve("copy"), count);
            HeapAfterGc heap = HeapAfterGc.read(gcLog, halfWayMillis);
            String scenario = String.format(Locale.ROOT, "%,d x 1 B, %s, -Xmx256m", count, label);
            table.add(new Result(
                    "million",
                    scenario + ", planning (crawl + rows)",
                    "files/s",
                    count / planned,
                    "-",
                    Double.NaN,
                    Double.NaN,
                    false));
            table.add(new Result(
                    "million",
                    scenario + ", submit to SUCCEEDED",
                    "files/s",
                    count / total,
                    "-",
                    Double.NaN,
                    Double.NaN,
                    false));
            table.add(new Result(
                    "million",
                    scenario + ", heap after the first GC past half way",
                    "MiB",
                    heap.firstAfterHalfWay(),
                    "-",
                    Double.NaN,
                    Double.NaN,
                    true));
            table.add(new Result(
                    "million",
                    scenario + ", server CPU per file",
                    "us",
                    cpu * 1e6 / count,
                    "-",
                    Double.NaN,
                    Double.NaN,
                    true));
            table.note(String.format(
                    Locale.ROOT,
                    "million %s: planned in %.1f s, ended in %.1f s, server CPU %.1f s; destination checked"
                            + " afterwards: %,d files, each 1 B and the source's byte, no other file; GC log: %d"
                            + " collections, heap after them %d-%d MiB over the run, %d MiB after the first past"
                            + " half way; %s",
                    name,
                    planned,
                    total,
                    cpu,
                    checked,
                    heap.collections(),
                    heap.lowest(),
                    heap.highest(),
                    heap.firstAfterHalfWay(),
                    databaseSize(home)));
        } finally {
            for (ServiceProcess process : started) {
                process.close();
            }
            Scratch.deleteTree(destination);
        }
    }

    /**
     * Builds the source tree of {@code count} one-byte files once and keeps it: {@code <shm>-million}
     * is outside the scratch directory the run script empties. The marker beside the tree (not in
     * it: it would be a file of the task) holds the count and is written last.
     */
    private Path sourceTree(int count) throws IOException {
        Path memory = options.memoryDirectory();
        Path keep = Scratch.directory(memory.resolveSibling(memory.getFileName() + "-million"));
        Path source = keep.resolve("src-" + count);
        Path marker = keep.resolve("src-" + count + ".count");
        if (Files.exists(marker) && Files.readString(marker).strip().equals(Integer.toString(count))) {
            return source;
        }
        Scratch.deleteTree(source);
        Files.createDirectories(source);
        ByteBuffer one = ByteBuffer.allocate(1);
        for (int i = 0; i < count; i++) {
            Path directory = source.resolve(directoryName(i));
            if (i % PER_DIRECTORY == 0) {
                Files.createDirectories(directory);
            }
            try (FileChannel file = FileChannel.open(
                    directory.resolve(fileName(i)), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                one.clear();
                one.put(0, content(i));
                file.write(one);
            }
        }
        Files.writeString(marker, Integer.toString(count));
        return source;
    }

    /**
     * Checks every file the task should have written (present, one byte, the source's byte) and
     * that no other file is there.
     *
     * @return the number of files found
     * @throws IllegalStateException at the first file that is missing, of another size or content,
     *     or when the tree holds more files
     */
    private static long checkDestination(Path copy, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            Path file = copy.resolve(directoryName(i)).resolve(fileName(i));
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                throw new IllegalStateException("million: the task SUCCEEDED but " + file + " is missing");
            }
            if (bytes.length != 1 || bytes[0] != content(i)) {
                throw new IllegalStateException("million: the task SUCCEEDED but " + file + " holds " + bytes.length
                        + " bytes, not the source's");
            }
        }
        long found;
        try (Stream<Path> paths = Files.walk(copy)) {
            found = paths.filter(Files::isRegularFile).count();
        }
        if (found != count) {
            throw new IllegalStateException("million: the destination holds " + found + " files, not " + count);
        }
        return found;
    }

    private static String directoryName(int i) {
        return String.format("d%04d", i / PER_DIRECTORY);
    }

    private static String fileName(int i) {
        return String.format("f%04d", i % PER_DIRECTORY);
    }

    /** A file's one byte: a letter that differs between neighbours, so that swapped files show. */
    private static byte content(int i) {
        return (byte) ('a' + i % 26);
    }

    private static String databaseSize(Path home) throws IOException {
        Path h2 = home.resolve("db/ferry.mv.db");
        return Files.exists(h2) ? "H2 database " + Files.size(h2) / 1048576 + " MiB" : "database outside FERRY_HOME";
    }

    /**
     * The heap figures of a JVM's GC log ({@code -Xlog:gc:file=F:timemillis}): the heap after each
     * pause, in MiB. The heap after a young collection still holds the old generation's garbage, so
     * it bounds the live heap from above.
     */
    private record HeapAfterGc(int collections, long lowest, long highest, long firstAfterHalfWay) {

        static HeapAfterGc read(Path log, long halfWayMillis) throws IOException {
            int collections = 0;
            long lowest = Long.MAX_VALUE;
            long highest = 0;
            long first = -1;
            for (String line : Files.readAllLines(log)) {
                Matcher matcher = GC_PAUSE.matcher(line);
                if (!matcher.find()) {
                    continue;
                }
                long after = Long.parseLong(matcher.group(3));
                collections++;
                lowest = Math.min(lowest, after);
                highest = Math.max(highest, after);
                if (first < 0 && halfWayMillis >= 0 && Long.parseLong(matcher.group(1)) >= halfWayMillis) {
                    first = after;
                }
            }
            if (collections == 0 || first < 0) {
                throw new IllegalStateException("million: no collection after half way in " + log);
            }
            return new HeapAfterGc(collections, lowest, highest, first);
        }
    }
}
