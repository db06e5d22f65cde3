package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Runs Ferry's benchmarks against their peers on loopback and prints, per benchmark, Ferry's figure
 * beside the peer's with their ratio and the target; writes {@code results.csv} and
 * {@code results.json} into the output directory. Started by {@code integration-tests/bench/run},
 * which installs the peers and builds first. Exit code 0 when every benchmark ran (targets missed
 * or not), 1 when one failed.
 */
public final class BenchMain {

    private BenchMain() {}

    /**
     * @param args see {@link BenchOptions#parse}
     */
    public static void main(String[] args) throws IOException {
        BenchOptions options = BenchOptions.parse(args);
        ResultTable table = new ResultTable();
        table.note("started " + Instant.now() + ", load average " + loadAverage() + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs");
        boolean failed = false;
        for (String name : BenchOptions.ALL) {
            if (!options.runs(name)) {
                continue;
            }
            System.out.println("running " + name + " (load average " + loadAverage() + ") ...");
            long start = System.nanoTime();
            try {
                switch (name) {
                    case "memory" -> new MemoryToMemoryBench(options, table).run();
                    case "disk" -> new DiskToDiskBench(options, table).run();
                    case "smallfiles" -> new SmallFilesBench(options, table).run();
                    case "fixedclient" -> new FixedClientBench(options, table).run();
                    case "sshftp" -> new SshftpBench(options, table).run();
                    case "crosshost" -> new CrossHostBench(options, table).run();
                    case "sessions" -> new SessionsBench(options, table).run();
                    case "secure" -> new SecureThroughputBenchmark(options, table).run();
                    case "service" -> new ServiceBench(options, table).run();
                    case "manytasks" -> new ManyTasksBench(options, table).run();
                    case "million" -> new MillionFilesBench(options, table).run();
                    case "files-api" -> new FilesApiBench(options, table).run();
                    case "connect" -> new ConnectBench(options, table).run();
                    case "multicast" -> new MulticastBench(options, table).run();
                    case "verify" -> new VerifyChecksumBench(options, table).run();
                    default -> throw new IllegalStateException(name);
                }
                table.print(name, System.out);
            } catch (Exception e) {
                failed = true;
                table.note(name + " FAILED: " + e);
                System.out.println(name + " FAILED:");
                e.printStackTrace(System.out);
            }
            table.note(String.format(
                    java.util.Locale.ROOT,
                    "%s took %.1f s, load average after: %s",
                    name,
                    (System.nanoTime() - start) / 1e9,
                    loadAverage()));
        }
        System.out.println();
        table.notes().forEach(note -> System.out.println("note: " + note));
        table.write(options.outputDirectory());
        System.out.println("results: " + options.outputDirectory().resolve("results.csv") + ", "
                + options.outputDirectory().resolve("results.json"));
        System.exit(failed ? 1 : 0);
    }

    /** @return {@code /proc/loadavg}'s three load averages, or {@code unknown} */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
