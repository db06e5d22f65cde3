package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.TransferOptions;

/**
 * Disk to disk, one large file: Ferry client downloading from a Ferry server against
 * globus-url-copy downloading from globus-gridftp-server, both MODE E with 4 streams, the page
 * cache dropped before each run (where allowed) so that the source is read from disk.
 */
final class DiskToDiskBench {

    private static final int PARALLELISM = 4;

    private final BenchOptions options;
    private final ResultTable table;

    DiskToDiskBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** Runs the benchmark and adds its row. */
    void run() throws IOException, InterruptedException {
        long bytes = options.diskFileBytes();
        Path base = Scratch.directory(options.dataDirectory().resolve("disk"));
        Path source = Scratch.directory(base.resolve("src")).resolve("big");
        Scratch.file(source, bytes, 42);
        Path destination = Scratch.directory(base.resolve("dst"));
        Path logs = options.outputDirectory().resolve("logs");
        try (FerryServer ferry = FerryServer.start(options.repoRoot(), base.resolve("src"),
                logs.resolve("ferry-disk.log"));
                GlobusServer globus = GlobusServer.start(logs.resolve("globus-disk.pid"));
                GridFtpClient client = new GridFtpClient()) {
            TransferOptions mode = TransferOptions.extendedBlock(PARALLELISM);
            Path ferryCopy = destination.resolve("ferry-copy");
            Path globusCopy = destination.resolve("globus-copy");

            boolean dropped = Scratch.dropCaches();
            Command.Outcome globusRun = Command.check(List.of("globus-url-copy", "-p", Integer.toString(PARALLELISM),
                    globus.url() + source, "file://" + globusCopy), 1800);
            Command.check(List.of("sync"), 300);
            requireSize(globusCopy, bytes);
            Files.delete(globusCopy);

            Scratch.dropCaches();
            FerryTransfers.Timed timed = FerryTransfers.download(client, ferry.url(), "/big", ferryCopy, mode);
            Command.check(List.of("sync"), 300);
            requireSize(ferryCopy, bytes);
            Files.delete(ferryCopy);

            String scenario = "1 file " + Rates.size(bytes) + ", p=" + PARALLELISM
                    + (dropped ? ", cold cache" : ", warm cache");
            table.add(new Result("disk", scenario, "Gbit/s", Rates.gigabitsPerSecond(bytes, timed.elapsedNanos()),
                    "globus-url-copy -p " + PARALLELISM, Rates.gigabitsPerSecond(bytes, globusRun.elapsedNanos()),
                    1.0, false));
        }
    }

    private static void requireSize(Path file, long bytes) throws IOException {
        if (Files.size(file) != bytes) {
            throw new IllegalStateException(file + " has " + Files.size(file) + " bytes, expected " + bytes);
        }
    }
}
