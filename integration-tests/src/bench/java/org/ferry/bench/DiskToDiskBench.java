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
    private static final long WARMUP_BYTES = 1L << 30;

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
        Path warmup = base.resolve("src").resolve("warmup");
        Scratch.file(warmup, WARMUP_BYTES, 7);
        Path destination = Scratch.directory(base.resolve("dst"));
        Path logs = options.outputDirectory().resolve("logs");
        try (FerryServer ferry =
                        FerryServer.start(options.repoRoot(), base.resolve("src"), logs.resolve("ferry-disk.log"));
                GlobusServer globus = GlobusServer.start(logs.resolve("globus-disk.pid"));
                GridFtpClient client = new GridFtpClient()) {
            TransferOptions mode = TransferOptions.extendedBlock(PARALLELISM);
            Path ferryCopy = destination.resolve("ferry-copy");
            Path globusCopy = destination.resolve("globus-copy");

            // JIT warm-up of both Ferry JVMs (a server and a mover run for days); not reported
            FerryTransfers.download(client, ferry.url(), "/warmup", ferryCopy, mode);
            Files.delete(ferryCopy);

            boolean dropped = true;
            double ferryGbits = 0;
            double globusGbits = 0;
            // best of N, the order turned each round: the machine's other load comes and goes
            for (int round = 0; round < options.repeat(); round++) {
                if (round % 2 == 1) {
                    dropped &= Scratch.dropCaches();
                    ferryGbits = Math.max(ferryGbits, ferryRun(client, ferry, mode, ferryCopy, bytes));
                }
                dropped &= Scratch.dropCaches();
                Command.Outcome globusRun = Command.check(
                        List.of(
                                "globus-url-copy",
                                "-p",
                                Integer.toString(PARALLELISM),
                                globus.url() + source,
                                "file://" + globusCopy),
                        1800);
                Command.check(List.of("sync"), 300);
                requireSize(globusCopy, bytes);
                Files.delete(globusCopy);
                globusGbits = Math.max(globusGbits, Rates.gigabitsPerSecond(bytes, globusRun.elapsedNanos()));
                if (round % 2 == 0) {
                    dropped &= Scratch.dropCaches();
                    ferryGbits = Math.max(ferryGbits, ferryRun(client, ferry, mode, ferryCopy, bytes));
                }
            }

            String scenario = "1 file " + Rates.size(bytes) + ", p=" + PARALLELISM + ", best of " + options.repeat()
                    + (dropped ? ", cold cache" : ", warm cache");
            table.add(new Result(
                    "disk",
                    scenario,
                    "Gbit/s",
                    ferryGbits,
                    "globus-url-copy -p " + PARALLELISM,
                    globusGbits,
                    1.0,
                    false));
        }
    }

    /** @return Gbit/s of one download into {@code copy} (timed up to the 226, as globus-url-copy's exit) */
    private static double ferryRun(GridFtpClient client, FerryServer ferry, TransferOptions mode, Path copy, long bytes)
            throws IOException, InterruptedException {
        FerryTransfers.Timed timed = FerryTransfers.download(client, ferry.url(), "/big", copy, mode);
        Command.check(List.of("sync"), 300);
        requireSize(copy, bytes);
        Files.delete(copy);
        return Rates.gigabitsPerSecond(bytes, timed.elapsedNanos());
    }

    private static void requireSize(Path file, long bytes) throws IOException {
        if (Files.size(file) != bytes) {
            throw new IllegalStateException(file + " has " + Files.size(file) + " bytes, expected " + bytes);
        }
    }
}
