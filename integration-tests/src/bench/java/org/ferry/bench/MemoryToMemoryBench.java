package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.TransferOptions;

/**
 * Memory to memory: Ferry server + Ferry client against globus-gridftp-server + globus-url-copy at
 * p=1 (stream mode) and p=4 (MODE E), and iperf3 on loopback as the limit.
 *
 * <p>Both servers send the same source: a regular file of N pseudo-random bytes on tmpfs (in RAM,
 * every page its own), written before the rounds; both clients write {@code /dev/null}. The source
 * is really read: a sparse file would hand {@code sendfile} the kernel's one zero page over and
 * over, which no real file does (that is how an earlier version of this benchmark had Ferry above
 * iperf3's loopback rate). The ratio and its target are against globus-url-copy on that same file.
 * globus-url-copy from {@code /dev/zero} with {@code -len N}, as in the papers, is printed beside it
 * for reference only (a different source: no ratio target).
 */
final class MemoryToMemoryBench {

    private static final long WARMUP_BYTES = 512L << 20;

    private final BenchOptions options;
    private final ResultTable table;

    MemoryToMemoryBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** Runs the benchmark and adds its rows. */
    void run() throws IOException, InterruptedException {
        long bytes = options.memoryBytes();
        Path dir = options.memoryDirectory().resolve("memory");
        Files.createDirectories(dir);
        requireMemory(bytes + WARMUP_BYTES);
        // pseudo-random bytes, every page written: nothing sparse, nothing the page cache can share
        Scratch.file(dir.resolve("source"), bytes, 1);
        Scratch.file(dir.resolve("warmup"), WARMUP_BYTES, 2);
        // the globus server runs as gsuser: it must be able to reach the tmpfs file
        Files.setPosixFilePermissions(options.memoryDirectory(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(logs);
        String size = Rates.size(bytes);
        try (FerryServer ferry = FerryServer.start(options.repoRoot(), dir, logs.resolve("ferry-memory.log"));
                GlobusServer globus = GlobusServer.start(logs.resolve("globus-memory.pid"));
                GridFtpClient client = new GridFtpClient()) {
            for (TransferOptions mode : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                // warm-up, both sides alike, not reported: JIT of both Ferry JVMs (a server and a mover
                // run for days), the globus pair's first session and the file's pages
                FerryTransfers.download(client, ferry.url(), "/warmup", Path.of("/dev/null"), mode);
                globusGigabits(globus, dir.resolve("warmup").toString(), 0, mode);
            }
            for (TransferOptions mode : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                int p = mode.parallelism();
                String scenario =
                        "p=" + p + (p == 1 ? " stream" : " MODE E") + ", " + size + ", best of " + options.repeat();
                double iperf = 0;
                double globusZero = 0;
                double globusFile = 0;
                double ferryGbits = 0;
                // best of N, the order turned each round: the machine's other load comes and goes
                for (int round = 0; round < options.repeat(); round++) {
                    if (round % 2 == 1) {
                        ferryGbits = Math.max(ferryGbits, ferryGigabits(client, ferry, mode, bytes));
                    }
                    iperf = Math.max(iperf, Iperf3.gigabitsPerSecond(bytes, p, logs));
                    globusZero = Math.max(globusZero, globusGigabits(globus, "/dev/zero", bytes, mode));
                    globusFile = Math.max(
                            globusFile,
                            globusGigabits(globus, dir.resolve("source").toString(), 0, mode));
                    if (round % 2 == 0) {
                        ferryGbits = Math.max(ferryGbits, ferryGigabits(client, ferry, mode, bytes));
                    }
                }
                String flag = FerryTransfers.globusParallelism(mode);
                table.add(new Result(
                        "memory",
                        scenario,
                        "Gbit/s",
                        ferryGbits,
                        ("globus-url-copy " + flag).trim() + " same tmpfs file",
                        globusFile,
                        1.0,
                        false));
                table.add(new Result(
                        "memory",
                        scenario,
                        "Gbit/s",
                        ferryGbits,
                        ("globus-url-copy " + flag).trim() + " /dev/zero (other source)",
                        globusZero,
                        Double.NaN,
                        false));
                table.add(new Result(
                        "memory",
                        scenario,
                        "Gbit/s",
                        ferryGbits,
                        "iperf3" + (p > 1 ? " -P " + p : "") + " (loopback limit)",
                        iperf,
                        0.85,
                        false));
            }
        } finally {
            Files.deleteIfExists(dir.resolve("source"));
            Files.deleteIfExists(dir.resolve("warmup"));
        }
    }

    private static double ferryGigabits(GridFtpClient client, FerryServer ferry, TransferOptions mode, long bytes)
            throws IOException {
        FerryTransfers.Timed timed =
                FerryTransfers.download(client, ferry.url(), "/source", Path.of("/dev/null"), mode);
        if (timed.bytes() != bytes) {
            throw new IllegalStateException("Ferry moved " + timed.bytes() + " of " + bytes + " bytes");
        }
        return Rates.gigabitsPerSecond(timed.bytes(), timed.elapsedNanos());
    }

    /**
     * Fails before writing the source when RAM would not hold it beside what runs: a tmpfs file
     * that pushes the machine into the OOM killer measures nothing.
     */
    private static void requireMemory(long bytes) throws IOException {
        Matcher available =
                Pattern.compile("MemAvailable:\\s+(\\d+) kB").matcher(Files.readString(Path.of("/proc/meminfo")));
        if (available.find() && Long.parseLong(available.group(1)) * 1024 < bytes + (2L << 30)) {
            throw new IllegalStateException("memory: " + Rates.size(bytes) + " on tmpfs would not fit in "
                    + available.group(1) + " kB available (and 2 GiB to spare); give a smaller size with --quick");
        }
    }

    /** @param lengthBytes {@code -len} for a device, or 0 for a regular file (whole file) */
    private static double globusGigabits(GlobusServer server, String path, long lengthBytes, TransferOptions mode)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("globus-url-copy"));
        if (mode.mode() == TransferOptions.Mode.EXTENDED_BLOCK) {
            command.addAll(List.of("-p", Integer.toString(mode.parallelism())));
        }
        if (lengthBytes > 0) {
            command.addAll(List.of("-len", Long.toString(lengthBytes)));
        }
        command.addAll(List.of(server.url() + path, "file:///dev/null"));
        Command.Outcome outcome = Command.check(command, 900);
        long bytes = lengthBytes > 0 ? lengthBytes : Files.size(Path.of(path));
        return Rates.gigabitsPerSecond(bytes, outcome.elapsedNanos());
    }
}
