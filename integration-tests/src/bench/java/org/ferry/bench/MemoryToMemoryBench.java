package org.ferry.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.TransferOptions;

/**
 * Memory to memory: Ferry server + Ferry client against globus-gridftp-server + globus-url-copy at
 * p=1 (stream mode) and p=4 (MODE E), and iperf3 on loopback as the limit.
 *
 * <p>globus-url-copy reads {@code /dev/zero} with {@code -len N} and writes {@code /dev/null}, as
 * in the papers. Ferry's storage serves regular files only (RETR takes the length from the file,
 * and a character device has none), so its source is a sparse file of N bytes on tmpfs: its
 * holes read as the kernel's zero page, no disk and no page allocation, which is what reading
 * {@code /dev/zero} costs too. Ferry's client writes {@code /dev/null}. The globus pair is also run
 * on the same tmpfs file, so that the source is not what makes the difference.
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
        sparse(dir.resolve("zero"), bytes);
        sparse(dir.resolve("warmup"), WARMUP_BYTES);
        // the globus server runs as gsuser: it must be able to reach the tmpfs file
        Files.setPosixFilePermissions(
                options.memoryDirectory(), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(logs);
        String size = Rates.size(bytes);
        try (FerryServer ferry = FerryServer.start(options.repoRoot(), dir, logs.resolve("ferry-memory.log"));
                GlobusServer globus = GlobusServer.start(logs.resolve("globus-memory.pid"));
                GridFtpClient client = new GridFtpClient()) {
            for (TransferOptions mode : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                // JIT warm-up of both Ferry JVMs (a server and a mover run for days); not reported
                FerryTransfers.download(client, ferry.url(), "/warmup", Path.of("/dev/null"), mode);
            }
            for (TransferOptions mode : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                int p = mode.parallelism();
                String scenario =
                        "p=" + p + (p == 1 ? " stream" : " MODE E") + ", " + size + ", best of " + options.repeat();
                double iperf = 0;
                double globusZero = 0;
                double globusTmpfs = 0;
                double ferryGbits = 0;
                // best of N, the order turned each round: the machine's other load comes and goes
                for (int round = 0; round < options.repeat(); round++) {
                    if (round % 2 == 1) {
                        ferryGbits = Math.max(ferryGbits, ferryGigabits(client, ferry, mode, bytes));
                    }
                    iperf = Math.max(iperf, Iperf3.gigabitsPerSecond(bytes, p, logs));
                    globusZero = Math.max(globusZero, globusGigabits(globus, "/dev/zero", bytes, mode));
                    globusTmpfs = Math.max(
                            globusTmpfs,
                            globusGigabits(globus, dir.resolve("zero").toString(), 0, mode));
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
                        ("globus-url-copy " + flag).trim() + " /dev/zero",
                        globusZero,
                        1.0,
                        false));
                table.add(new Result(
                        "memory",
                        scenario,
                        "Gbit/s",
                        ferryGbits,
                        ("globus-url-copy " + flag).trim() + " same tmpfs file",
                        globusTmpfs,
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
            Files.deleteIfExists(dir.resolve("zero"));
            Files.deleteIfExists(dir.resolve("warmup"));
        }
    }

    private static double ferryGigabits(GridFtpClient client, FerryServer ferry, TransferOptions mode, long bytes)
            throws IOException {
        FerryTransfers.Timed timed = FerryTransfers.download(client, ferry.url(), "/zero", Path.of("/dev/null"), mode);
        if (timed.bytes() != bytes) {
            throw new IllegalStateException("Ferry moved " + timed.bytes() + " of " + bytes + " bytes");
        }
        return Rates.gigabitsPerSecond(timed.bytes(), timed.elapsedNanos());
    }

    private static void sparse(Path file, long bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(0);
            raf.setLength(bytes);
        }
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
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
