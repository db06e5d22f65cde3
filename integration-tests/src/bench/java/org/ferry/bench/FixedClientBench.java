package org.ferry.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;

/**
 * The servers compared with the client held fixed: the same client drives globus-gridftp-server and
 * ferry-gridftp in turn, so only the server differs. The client is {@code globus-url-copy} (and, in
 * the rows that say so, Ferry's own client); both servers serve {@code /} on loopback, anonymous, so
 * that the URLs are the same paths. Rows, each on both servers:
 *
 * <ul>
 *   <li>many small files (count x 50 KiB), {@code -r -cd} with {@code -pp}, {@code -cc 4} and
 *       {@code -pp -cc 4}: third-party (both URLs on the server under test) and two-party download
 *       (server to a local directory), on tmpfs and on disk (the file system {@code --small-dir} is
 *       on: {@code bench/run} makes a fresh journaled ext4 for it);
 *   <li>one big file on tmpfs (the disk-to-disk size), downloaded to {@code /dev/null} and uploaded
 *       from tmpfs to tmpfs, at {@code -p 1} (stream mode), {@code -p 4} and {@code -p 8};
 *   <li>Ferry's client on both servers: a pipelined third-party batch of the small files (one session
 *       pair, tar streams off: the per-file path) and the big file downloaded at p=4;
 *   <li>the first small-file third-party {@code -pp} run after both servers were started afresh,
 *       once per round.
 * </ul>
 *
 * <p>Rounds are interleaved (every case on globus then Ferry, the order turned each round, so load
 * from the rest of the machine falls on both), and each row reports the best and the median round
 * as rates (files/s, Gbit/s), with the ratio Ferry / globus: above 1 Ferry's server is faster. The
 * load average is noted per round. The servers run warm (one untimed pass of every case first)
 * except in the first-transfer rows.
 */
final class FixedClientBench {

    private static final List<List<String>> SMALL_FLAGS =
            List.of(List.of("-pp"), List.of("-cc", "4"), List.of("-pp", "-cc", "4"));
    private static final int[] PARALLELISM = {1, 4, 8};
    private static final int PIPELINE_DEPTH = 20;

    private final BenchOptions options;
    private final ResultTable table;
    /** case name -> per server ("globus"/"ferry") -> seconds of each round */
    private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();
    /** case name -> units of work per run (files, or bits for Gbit/s) and the unit */
    private final Map<String, double[]> work = new LinkedHashMap<>();

    FixedClientBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** One timed run against one server. */
    private interface Run {
        /** @return elapsed nanoseconds */
        long run(String serverUrl, String server) throws Exception;
    }

    private record Case(String name, double units, boolean bits, double target, Run run) {}

    /** Runs the benchmark and adds its rows. */
    void run() throws Exception {
        int count = options.smallFileCount();
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(options.memoryDirectory());
        // the globus server runs as gsuser: it must reach the tmpfs trees
        Files.setPosixFilePermissions(
                options.memoryDirectory(), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmpfs = Scratch.directory(options.memoryDirectory().resolve("fixed"));
        Path disk = Scratch.directory(options.smallFilesDirectory().resolve("fixed"));
        Map<String, Path> stores = new LinkedHashMap<>();
        stores.put("tmpfs", tmpfs);
        stores.put(Files.getFileStore(disk).type(), disk);
        for (Path store : stores.values()) {
            Path source = Scratch.directory(store.resolve("src-" + count));
            for (int i = 0; i < count; i++) {
                Scratch.file(source.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
            }
        }
        long bigBytes = options.diskFileBytes();
        Path big = tmpfs.resolve("big");
        sparseOrFull(big, bigBytes);
        Path runs = tmpfs.resolve("runs");
        Scratch.deleteTree(runs);
        Scratch.directory(runs);
        Path diskRuns = disk.resolve("runs");
        Scratch.deleteTree(diskRuns);
        Scratch.directory(diskRuns);

        List<Case> cases = new ArrayList<>();
        for (Map.Entry<String, Path> store : stores.entrySet()) {
            Path source = store.getValue().resolve("src-" + count);
            Path into = store.getKey().equals("tmpfs") ? runs : diskRuns;
            for (List<String> flags : SMALL_FLAGS) {
                String flagText = String.join(" ", flags);
                double target = flags.equals(List.of("-pp")) ? 1.5 : 1.0;
                cases.add(new Case(
                        "globus-url-copy " + flagText + ", third-party, " + store.getKey(),
                        count,
                        false,
                        target,
                        (url, server) -> {
                            Path destination = fresh(into, server);
                            return globusUrlCopy(flags, url + source + "/", url + destination + "/", into, destination);
                        }));
                cases.add(new Case(
                        "globus-url-copy " + flagText + ", download, " + store.getKey(),
                        count,
                        false,
                        target,
                        (url, server) -> {
                            Path destination = fresh(into, server);
                            return globusUrlCopy(
                                    flags, url + source + "/", "file://" + destination + "/", into, destination);
                        }));
            }
        }
        for (int p : PARALLELISM) {
            List<String> flags = p == 1 ? List.of() : List.of("-p", Integer.toString(p));
            String mode = p == 1 ? "-p 1 (stream)" : "-p " + p;
            cases.add(new Case(
                    "globus-url-copy " + mode + ", " + Rates.size(bigBytes) + " download to /dev/null",
                    bigBytes * 8.0,
                    true,
                    1.0,
                    (url, server) -> globusUrlCopy(flags, url + big, "file:///dev/null", null, null)));
            cases.add(new Case(
                    "globus-url-copy " + mode + ", " + Rates.size(bigBytes) + " upload tmpfs to tmpfs",
                    bigBytes * 8.0,
                    true,
                    1.0,
                    (url, server) -> {
                        Path destination = fresh(runs, server);
                        long nanos = globusUrlCopy(flags, "file://" + big, url + destination + "/big", null, null);
                        Files.deleteIfExists(destination.resolve("big"));
                        return nanos;
                    }));
        }
        try (GridFtpClient client = new GridFtpClient()) {
            Path source = tmpfs.resolve("src-" + count);
            cases.add(new Case(
                    "Ferry client, pipelined third-party batch (tar off), tmpfs", count, false, 1.5, (url, server) -> {
                        Path destination = fresh(runs, server);
                        long nanos = ferryBatch(client, url, source, destination);
                        requireCopy(destination, count);
                        Scratch.deleteTree(destination);
                        return nanos;
                    }));
            cases.add(new Case(
                    "Ferry client, p=4, " + Rates.size(bigBytes) + " download to /dev/null",
                    bigBytes * 8.0,
                    true,
                    1.0,
                    (url, server) -> FerryTransfers.download(
                                    client,
                                    withAnonymous(url),
                                    big.toString(),
                                    Path.of("/dev/null"),
                                    TransferOptions.extendedBlock(4))
                            .elapsedNanos()));
            runRounds(cases, logs, tmpfs, count);
        } finally {
            Scratch.deleteTree(runs);
            Scratch.deleteTree(diskRuns);
            Files.deleteIfExists(big);
        }
        report(cases);
    }

    private void runRounds(List<Case> cases, Path logs, Path tmpfs, int count) throws Exception {
        Path source = tmpfs.resolve("src-" + count);
        Path runs = tmpfs.resolve("runs");
        String firstCase = "first globus-url-copy -pp third-party run after a cold start, tmpfs";
        Case first = new Case(firstCase, count, false, 1.0, (url, server) -> {
            Path destination = fresh(runs, server);
            return globusUrlCopy(List.of("-pp"), url + source + "/", url + destination + "/", runs, destination);
        });
        // the first transfer of freshly started servers, one cold start per round and server
        for (int round = 1; round <= options.repeat(); round++) {
            for (String server : order(round)) {
                try (PlainServers servers = PlainServers.start(options, logs, server, "fixed")) {
                    time(first, servers, server, false);
                }
            }
        }
        // the rest on servers started once and warmed by an untimed pass (servers run for days)
        try (PlainServers servers = PlainServers.start(options, logs, "both", "fixed")) {
            for (int round = 0; round <= options.repeat(); round++) {
                boolean warmup = round == 0;
                String load = loadAverage();
                if (!warmup) {
                    table.note(String.format(Locale.ROOT, "fixedclient round %d: load average %s", round, load));
                }
                System.out.println("fixedclient " + (warmup ? "warm-up" : "round " + round) + " (load " + load + ")");
                for (Case c : cases) {
                    for (String server : order(round)) {
                        time(c, servers, server, warmup);
                    }
                }
            }
        }
        cases.add(0, first);
    }

    private void time(Case c, PlainServers servers, String server, boolean warmup) throws Exception {
        String url = server.equals("globus")
                ? servers.globus().url()
                : servers.ferry().url().replace("anonymous:bench@", "");
        long nanos = c.run().run(url, server);
        if (!warmup) {
            seconds.computeIfAbsent(c.name(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(server, k -> new ArrayList<>())
                    .add(nanos / 1e9);
            work.put(c.name(), new double[] {c.units(), c.bits() ? 1 : 0});
        }
    }

    private void report(List<Case> cases) {
        for (Case c : cases) {
            Map<String, List<Double>> byServer = seconds.get(c.name());
            if (byServer == null) {
                continue;
            }
            String unit = c.bits() ? "Gbit/s" : "files/s";
            double scale = c.bits() ? 1e-9 : 1;
            List<Double> ferry = byServer.get("ferry");
            List<Double> globus = byServer.get("globus");
            for (boolean best : new boolean[] {true, false}) {
                double ferryRate = c.units() * scale / (best ? min(ferry) : median(ferry));
                double globusRate = c.units() * scale / (best ? min(globus) : median(globus));
                table.add(new Result(
                        "fixedclient",
                        c.name() + (best ? ", best of " : ", median of ") + ferry.size(),
                        unit,
                        ferryRate,
                        "globus-gridftp-server",
                        globusRate,
                        c.target(),
                        false));
            }
        }
    }

    private static List<String> order(int round) {
        return round % 2 == 0 ? List.of("globus", "ferry") : List.of("ferry", "globus");
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** A new empty destination directory the globus anonymous user (gsuser) can write. */
    private static Path fresh(Path into, String server) throws IOException, InterruptedException {
        Path destination = Files.createTempDirectory(into, server + "-");
        return Scratch.writableByGlobus(destination);
    }

    /**
     * Runs globus-url-copy; with {@code destination} (small files) the copy is checked and, on
     * tmpfs, deleted after the timing (on disk the trees stay until the end: deleting thousands of
     * files taxes the next run's creates on ext4).
     */
    private long globusUrlCopy(List<String> flags, String from, String to, Path into, Path destination)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("globus-url-copy"));
        if (destination != null) {
            command.addAll(List.of("-r", "-cd"));
        }
        command.addAll(flags);
        command.addAll(List.of(from, to));
        if (destination != null && !into.startsWith(options.memoryDirectory())) {
            Command.run(List.of("sync"), 600); // the previous run's writeback is nobody's
        }
        long nanos = Command.check(command, 1800).elapsedNanos();
        if (destination != null) {
            requireCopy(destination, options.smallFileCount());
            if (into.startsWith(options.memoryDirectory())) {
                Scratch.deleteTree(destination);
            }
        }
        return nanos;
    }

    /** Ferry's client moving the small files third-party on one server, one pipelined session pair. */
    private static long ferryBatch(GridFtpClient client, String url, Path source, Path destination) throws IOException {
        GridFtpUrl server = GridFtpUrl.parse(withAnonymous(url));
        long start = System.nanoTime();
        try (GridFtpSession from = client.open(server);
                GridFtpSession to = client.open(server)) {
            List<FilePair> pairs = new ArrayList<>();
            for (FileInfo info : from.list(source.toString())) {
                if (info.type() == FileInfo.Type.FILE) {
                    pairs.add(new FilePair(
                            source + "/" + info.name(), destination + "/" + info.name(), info.sizeBytes()));
                }
            }
            from.sendAll(
                    pairs,
                    to,
                    TransferOptions.extendedBlock(1).withTarStreams(false),
                    PIPELINE_DEPTH,
                    TransferListener.NONE);
        }
        return System.nanoTime() - start;
    }

    private static String withAnonymous(String url) {
        return url.replace("ftp://", "ftp://anonymous:bench@");
    }

    private void requireCopy(Path destination, int count) throws IOException {
        try (Stream<Path> files = Files.list(destination)) {
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

    /** A file of {@code bytes} zeros whose pages are all there (tmpfs: no holes read as the zero page). */
    private static void sparseOrFull(Path file, long bytes) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) == bytes) {
            return;
        }
        Scratch.file(file, bytes, 17);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            if (raf.length() != bytes) {
                throw new IllegalStateException(file + " is " + raf.length() + " bytes, not " + bytes);
            }
        }
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
