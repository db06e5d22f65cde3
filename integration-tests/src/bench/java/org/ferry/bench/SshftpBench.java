package org.ferry.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.ferry.it.infra.SshdServer;

/**
 * sshftp against plain {@code ftp://}, ferry-gridftp against globus-gridftp-server, with the client
 * held fixed: {@code globus-url-copy}, run as one test user of a real OpenSSH sshd on loopback
 * ({@link SshdServer}: key authentication, the user's own {@code known_hosts} and key). Four
 * contenders, all reading the same source trees on tmpfs and writing to tmpfs:
 *
 * <ul>
 *   <li>{@code sshftp://} to ferry-gridftp: the remote command {@code ferry-gridftp enable-sshftp
 *       --nonroot} writes, which runs {@code ferry-gridftp --ssh} per session;
 *   <li>{@code sshftp://} to globus-gridftp-server: the remote command
 *       {@code globus-gridftp-server-enable-sshftp} writes ({@code globus-gridftp-server -ssh});
 *   <li>{@code ftp://} to each server started once on 127.0.0.1, anonymous, as the other
 *       benchmarks start them ({@link FerryServer}, {@link GlobusServer}).
 * </ul>
 *
 * <p>Cases, each a download from the server to a fresh local directory: one big file (512 MiB,
 * {@code --quick} 128 MiB; stream mode) and the small files ({@code count} x 50 KiB with
 * {@code -r -cd -pp}, as the small-file benchmarks run globus-url-copy). Every destination is
 * checked against its source byte for byte before the run counts, then deleted. Rounds alternate
 * the contenders' order (turned every round); the first round is an untimed warm-up; best and
 * median of {@code --repeat} rounds. An sshftp run always starts its server (sshd runs the remote
 * command per session), so the plain servers' first small-file run after a start is timed on its
 * own row too (one fresh start per server and round): against it, sshftp's extra is SSH alone.
 */
final class SshftpBench {

    /** The servers' names in {@link PlainServers#start} and in the table. */
    private static final String FERRY = "ferry";

    private static final String GLOBUS = "globus";
    private static final long RUN_TIMEOUT_SECONDS = 900;

    private final BenchOptions options;
    private final ResultTable table;
    /** case -> contender ("ferry-gridftp sshftp", ...) -> seconds of each timed round */
    private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();

    SshftpBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** One case: what globus-url-copy gets, and how its result is checked. */
    private record Case(String name, List<String> flags, String sourcePath, boolean tree, long files, long bytes) {
        /** @return the destination URL's path under a fresh directory */
        String destination(Path directory) {
            return tree ? directory + "/" : directory.resolve("big").toString();
        }
    }

    /** One server reached one way. */
    private record Contender(String server, String scheme) {
        String name() {
            return server + " " + scheme;
        }
    }

    /** Runs the benchmark, prints its table and adds its Ferry/Globus rows. */
    void run() throws Exception {
        int count = options.smallFileCount();
        long bigBytes = options.sshftpFileBytes();
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(options.memoryDirectory());
        // the globus anonymous user (gsuser) and the test user must reach the trees
        Files.setPosixFilePermissions(options.memoryDirectory(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path base = Scratch.directory(options.memoryDirectory().resolve("sshftp"));
        try {
            Path source = Scratch.directory(base.resolve("src-" + count));
            for (int i = 0; i < count; i++) {
                Scratch.file(source.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
            }
            Path big = base.resolve("big");
            Scratch.file(big, bigBytes, 23);
            Path runs = Scratch.directory(base.resolve("runs"));
            Case bigCase = new Case(
                    Rates.size(bigBytes) + " download (stream mode)", List.of(), big.toString(), false, 1, bigBytes);
            Case smallCase = new Case(
                    count + " x " + options.smallFileBytes() / 1024 + " KiB download, -r -cd -pp",
                    List.of("-r", "-cd", "-pp"),
                    source + "/",
                    true,
                    count,
                    (long) count * options.smallFileBytes());
            Case firstCase = new Case(
                    smallCase.name() + ", first run after a start",
                    smallCase.flags(),
                    smallCase.sourcePath(),
                    true,
                    smallCase.files(),
                    smallCase.bytes());
            try (SshdServer sshd = SshdServer.start()) {
                // the two remote sides of sshftp as docs/sshftp.md sets them up
                Path ferryRemote =
                        sshd.enableFerrySshftp(options.repoRoot().resolve("bin").resolve("ferry-gridftp"));
                Path globusRemote = sshd.enableGlobusSshftp();
                Map<String, String> remote = Map.of(FERRY, ferryRemote.toString(), GLOBUS, globusRemote.toString());
                sshd.chown(runs);
                Runner runner = new Runner(sshd, remote, runs);
                // the plain servers' first transfer after a start: one cold start per server and round
                for (int round = 1; round <= options.repeat(); round++) {
                    for (String server : round % 2 == 1 ? List.of(FERRY, GLOBUS) : List.of(GLOBUS, FERRY)) {
                        try (PlainServers plain = PlainServers.start(options, logs, server, "sshftp-bench")) {
                            record(firstCase, new Contender(server, "ftp"), runner.time(firstCase, plain, server));
                        }
                    }
                }
                // the rest on plain servers started once and warmed by an untimed round
                try (PlainServers plain = PlainServers.start(options, logs, "both", "sshftp-bench")) {
                    List<Contender> contenders = List.of(
                            new Contender(FERRY, "sshftp"),
                            new Contender(GLOBUS, "sshftp"),
                            new Contender(FERRY, "ftp"),
                            new Contender(GLOBUS, "ftp"));
                    for (int round = 0; round <= options.repeat(); round++) {
                        String load = BenchMain.loadAverage();
                        System.out.println(
                                "sshftp " + (round == 0 ? "warm-up" : "round " + round) + " (load " + load + ")");
                        if (round > 0) {
                            table.note(String.format(Locale.ROOT, "sshftp round %d: load average %s", round, load));
                        }
                        List<Contender> order = new ArrayList<>(contenders);
                        if (round % 2 == 0) {
                            java.util.Collections.reverse(order);
                        }
                        for (Case c : List.of(bigCase, smallCase)) {
                            for (Contender contender : order) {
                                long nanos = contender.scheme().equals("sshftp")
                                        ? runner.time(c, null, contender.server())
                                        : runner.time(c, plain, contender.server());
                                if (round > 0) {
                                    record(c, contender, nanos);
                                }
                            }
                        }
                    }
                }
            }
            report(bigCase, smallCase, firstCase, System.out);
        } finally {
            Scratch.deleteTree(base); // tmpfs is memory
        }
    }

    private void record(Case c, Contender contender, long nanos) {
        seconds.computeIfAbsent(c.name(), k -> new LinkedHashMap<>())
                .computeIfAbsent(contender.name(), k -> new ArrayList<>())
                .add(nanos / 1e9);
    }

    /** Runs globus-url-copy as the test user and checks what it wrote. */
    private final class Runner {
        private final SshdServer sshd;
        private final Map<String, String> remote;
        private final Path runs;
        private int serial;

        Runner(SshdServer sshd, Map<String, String> remote, Path runs) {
            this.sshd = sshd;
            this.remote = remote;
            this.runs = runs;
        }

        /**
         * @param plain the plain servers for {@code ftp://}, or null for {@code sshftp://}
         * @return nanoseconds from globus-url-copy's start to its exit
         */
        long time(Case c, PlainServers plain, String server) throws IOException, InterruptedException {
            Path destination = Files.createDirectory(runs.resolve("run-" + ++serial));
            sshd.chown(destination);
            String from;
            Map<String, String> environment;
            if (plain == null) {
                from = sshd.sshftpBase() + c.sourcePath();
                // gridftp-ssh runs this as the remote command instead of ~/.globus/sshftp
                environment = Map.of("GLOBUS_REMOTE_SSHFTP", remote.get(server));
            } else {
                // anonymous: globus-url-copy's default login on ftp://
                from = (server.equals(FERRY)
                                ? "ftp://127.0.0.1:" + plain.ferry().port()
                                : plain.globus().url())
                        + c.sourcePath();
                environment = Map.of();
            }
            List<String> command = new ArrayList<>(List.of("globus-url-copy"));
            command.addAll(c.flags());
            command.addAll(List.of(from, "file://" + c.destination(destination)));
            long start = System.nanoTime();
            SshdServer.Run run = sshd.runAsUser(environment, Duration.ofSeconds(RUN_TIMEOUT_SECONDS), command);
            long nanos = System.nanoTime() - start;
            if (run.exitCode() != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " exited with " + run.exitCode() + ":\n" + run.output());
            }
            requireCopy(c, destination);
            Scratch.deleteTree(destination);
            return nanos;
        }
    }

    /** Fails unless {@code destination} holds every file of the case with its source's bytes. */
    private static void requireCopy(Case c, Path destination) throws IOException {
        Path source = Path.of(c.sourcePath());
        List<Path> sources;
        if (c.tree()) {
            try (Stream<Path> files = Files.list(source)) {
                sources = files.sorted().toList();
            }
            try (Stream<Path> copied = Files.list(destination)) {
                long n = copied.count();
                if (n != sources.size()) {
                    throw new IllegalStateException(destination + " has " + n + " entries, not " + sources.size());
                }
            }
        } else {
            sources = List.of(source);
        }
        for (Path from : sources) {
            Path to = c.tree() ? destination.resolve(from.getFileName()) : destination.resolve("big");
            if (!Files.isRegularFile(to) || Files.size(to) != Files.size(from) || Files.mismatch(from, to) != -1) {
                throw new IllegalStateException(to + " is not a copy of " + from);
            }
        }
    }

    /**
     * Prints the one table of this benchmark and adds its Ferry/Globus rows to the result table.
     * The first-run row sets the plain servers' first transfer after a start beside the sshftp runs
     * of the small files (each of which started its server).
     */
    private void report(Case bigCase, Case smallCase, Case firstCase, PrintStream out) {
        out.println();
        out.println("== sshftp: globus-url-copy fixed; same sshd, user, key and tmpfs;"
                + " F/G = ferry/globus, s/f = sshftp/ftp ==");
        out.printf(
                Locale.ROOT,
                ROW,
                "case, rate",
                "of " + options.repeat(),
                "ferry sshftp",
                "globus sshftp",
                "ferry ftp",
                "globus ftp",
                "F/G ssh",
                "F/G ftp",
                "s/f F",
                "s/f G");
        report(bigCase, seconds.get(bigCase.name()), seconds.get(bigCase.name()), out);
        report(smallCase, seconds.get(smallCase.name()), seconds.get(smallCase.name()), out);
        report(firstCase, seconds.get(smallCase.name()), seconds.get(firstCase.name()), out);
        out.println("(every sshftp run logs in through sshd and starts its server; the last rows set the plain"
                + " servers' first run after a start beside the same sshftp runs)");
        out.flush();
    }

    private static final String ROW = "%-62s %-7s %13s %13s %13s %13s %8s %8s %8s %8s%n";

    private void report(Case c, Map<String, List<Double>> sshftp, Map<String, List<Double>> ftp, PrintStream out) {
        if (sshftp == null || ftp == null) {
            return;
        }
        boolean first = c.name().endsWith("after a start");
        for (String unit : c.tree() ? List.of("files/s", "MB/s") : List.of("MB/s")) {
            for (boolean best : new boolean[] {true, false}) {
                double ferrySsh = rate(c, unit, sshftp.get(FERRY + " sshftp"), best);
                double globusSsh = rate(c, unit, sshftp.get(GLOBUS + " sshftp"), best);
                double ferryFtp = rate(c, unit, ftp.get(FERRY + " ftp"), best);
                double globusFtp = rate(c, unit, ftp.get(GLOBUS + " ftp"), best);
                out.printf(
                        Locale.ROOT,
                        ROW,
                        c.name() + ", " + unit,
                        best ? "best" : "median",
                        number(ferrySsh),
                        number(globusSsh),
                        number(ferryFtp),
                        number(globusFtp),
                        number(ferrySsh / globusSsh),
                        number(ferryFtp / globusFtp),
                        number(ferrySsh / ferryFtp),
                        number(globusSsh / globusFtp));
                String statistic = (best ? ", best of " : ", median of ") + options.repeat();
                if (!first) {
                    table.add(new Result(
                            "sshftp",
                            "sshftp://, " + c.name() + statistic,
                            unit,
                            ferrySsh,
                            "globus-gridftp-server sshftp://",
                            globusSsh,
                            Double.NaN,
                            false));
                }
                table.add(new Result(
                        "sshftp",
                        "ftp://, " + c.name() + statistic,
                        unit,
                        ferryFtp,
                        "globus-gridftp-server ftp://",
                        globusFtp,
                        Double.NaN,
                        false));
            }
        }
    }

    /** @return the rate in {@code unit} from the best (shortest) or median of {@code runs} seconds */
    private static double rate(Case c, String unit, List<Double> runs, boolean best) {
        if (runs == null || runs.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted =
                runs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        double secs = best ? sorted[0] : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return unit.equals("files/s") ? c.files() / secs : c.bytes() / 1e6 / secs;
    }

    private static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "n/a";
        }
        return Math.abs(value) >= 100
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.3g", value);
    }
}
