package org.ferry.bench;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * A task of {@code --million-files} (1,000,000) one-byte files, 1,000 per directory, between two
 * ferry-gridftp servers on tmpfs, through ferry-server on the embedded default with its heap capped
 * at 256 MiB: it plans and runs only because file rows stream through the database in pages. Reports
 * the planning rate (crawl and rows written), the whole task's rate, the server's live heap in the
 * middle of the run, and its CPU time per file (planning, dispatch, result application: the
 * per-file database cost, H2 included, as the server pays it). No peer runs this; the figures stand
 * alone.
 */
final class MillionFilesBench {

    private static final int PER_DIRECTORY = 1000;

    private final BenchOptions options;
    private final ResultTable table;

    MillionFilesBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    void run() throws Exception {
        int count = options.millionFiles();
        Path base = Scratch.directory(options.memoryDirectory().resolve("million"));
        Path source = Files.createDirectories(base.resolve("src-" + count));
        Path marker = source.resolve(".complete");
        if (!Files.exists(marker)) {
            ByteBuffer one = ByteBuffer.wrap(new byte[] {'x'});
            for (int i = 0; i < count; i++) {
                Path directory = source.resolve(String.format("d%04d", i / PER_DIRECTORY));
                if (i % PER_DIRECTORY == 0) {
                    Files.createDirectories(directory);
                }
                try (FileChannel file = FileChannel.open(
                        directory.resolve(String.format("f%04d", i % PER_DIRECTORY)),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE)) {
                    file.write(one.rewind());
                }
            }
            Files.writeString(marker, "");
        }
        Files.deleteIfExists(marker); // not a file of the task
        Path destination = base.resolve("dst");
        Scratch.deleteTree(destination);
        Files.createDirectories(destination);
        Path home = base.resolve("home");
        Scratch.deleteTree(home);
        Path logs = options.outputDirectory().resolve("logs");
        try (FerryServer from = FerryServer.start(options.repoRoot(), source, logs.resolve("million-src.log"));
                FerryServer to = FerryServer.start(options.repoRoot(), destination, logs.resolve("million-dst.log"));
                ServiceProcess server = ServiceProcess.server(
                        options.repoRoot(),
                        home,
                        logs.resolve("million-server.log"),
                        List.of("-Xmx256m"),
                        List.of("--ferry.transfer.progress-interval-seconds=30"))) {
            server.endpoint("admin#src", from.port());
            server.endpoint("admin#dst", to.port());
            double cpuBefore = server.cpuSeconds();
            long start = System.nanoTime();
            String taskId = server.post(
                            "/v0.10/transfer", ServiceProcess.transfer("admin#src", "admin#dst", "/", "/copy", true))
                    .get("task_id")
                    .asString();
            double planned = 0;
            long heapMid = -1;
            JsonNode task;
            while (true) {
                task = server.get("/v0.10/task/" + taskId);
                double seconds = (System.nanoTime() - start) / 1e9;
                if (planned == 0 && task.get("files").asLong() >= count) {
                    planned = seconds;
                }
                if (heapMid < 0 && task.get("files_transferred").asLong() >= count / 2) {
                    heapMid = JvmHeap.liveHeapBytes(server.pid());
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
            if (!"SUCCEEDED".equals(task.get("status").asString())
                    || task.get("files_transferred").asLong() != count) {
                throw new IllegalStateException("million-file task ended " + task);
            }
            String scenario = String.format(Locale.ROOT, "%,d x 1 B, embedded, -Xmx256m", count);
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
                    scenario + ", live heap at half way",
                    "MiB",
                    heapMid / 1048576.0,
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
                    "million: planned in %.1f s, ended in %.1f s, server CPU %.1f s, H2 database %s MiB",
                    planned,
                    total,
                    cpu,
                    Files.size(home.resolve("db/ferry.mv.db")) / 1048576));
        } finally {
            Scratch.deleteTree(destination);
        }
    }
}
