package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code globus-url-copy -verify-checksum} costs on an upload, with the client held fixed,
 * against globus-gridftp-server and ferry-gridftp with and without checksums computed in flight
 * ({@code --inflight-checksums MD5}, the default, and {@code none}): the client checksums the local
 * source itself and sends {@code CKSM MD5 0 -1} to the server after each file, which reads the file
 * again unless it computed the checksum while the file arrived. Two uploads from tmpfs to tmpfs on
 * loopback: {@code count} x 50 KiB ({@code -r -cd -pp}) and one big file (the disk-to-disk size,
 * stream mode, {@code -p 1}: in-flight checksums need the bytes in order). Each run with and
 * without {@code -verify-checksum}, on the three servers, rounds alternated (the order turned each
 * round); the median round's seconds and the ratio with / without are reported. One untimed pass
 * first (servers run warm).
 */
final class VerifyChecksumBench {

    private static final List<String> SERVERS = List.of("globus", "ferry-none", "ferry");

    private final BenchOptions options;
    private final ResultTable table;
    /** case -> server -> seconds per round */
    private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();

    VerifyChecksumBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    private record Workload(String name, String source, List<String> flags, boolean tree) {}

    void run() throws Exception {
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(options.memoryDirectory());
        Files.setPosixFilePermissions(
                options.memoryDirectory(), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path base = Scratch.directory(options.memoryDirectory().resolve("verify"));
        int count = options.smallFileCount();
        Path small = Scratch.directory(base.resolve("src-" + count));
        for (int i = 0; i < count; i++) {
            Scratch.file(small.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
        }
        long bigBytes = options.diskFileBytes();
        Path big = base.resolve("big");
        Scratch.file(big, bigBytes, 23);
        Path runs = Scratch.directory(base.resolve("runs"));
        List<Workload> workloads = List.of(
                new Workload(
                        String.format(Locale.ROOT, "%,d x 50 KiB upload, -pp", count),
                        "file://" + small + "/",
                        List.of("-r", "-cd", "-pp"),
                        true),
                new Workload(Rates.size(bigBytes) + " upload, -p 1 (stream)", "file://" + big, List.of(), false));
        GlobusServer globus = null;
        FerryServer ferryNone = null;
        FerryServer ferry = null;
        try {
            globus = GlobusServer.start(logs.resolve("globus-verify.pid"));
            ferryNone = FerryServer.start(
                    options.repoRoot(),
                    Path.of("/"),
                    logs.resolve("ferry-verify-none.log"),
                    null,
                    List.of("--inflight-checksums", "none"));
            ferry = FerryServer.start(options.repoRoot(), Path.of("/"), logs.resolve("ferry-verify.log"));
            Map<String, String> urls = Map.of(
                    "globus", globus.url(),
                    "ferry-none", ferryNone.url().replace("anonymous:bench@", ""),
                    "ferry", ferry.url().replace("anonymous:bench@", ""));
            for (int round = 0; round <= options.repeat(); round++) {
                boolean warmup = round == 0;
                System.out.println("verify " + (warmup ? "warm-up" : "round " + round) + " (load "
                        + BenchMain.loadAverage() + ")");
                List<String> order = new ArrayList<>(SERVERS);
                if (round % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                for (Workload workload : workloads) {
                    for (boolean verify : new boolean[] {false, true}) {
                        for (String server : order) {
                            double s = upload(workload, verify, urls.get(server), runs, server);
                            if (!warmup) {
                                seconds.computeIfAbsent(key(workload, verify), k -> new LinkedHashMap<>())
                                        .computeIfAbsent(server, k -> new ArrayList<>())
                                        .add(s);
                            }
                        }
                    }
                }
            }
        } finally {
            if (ferry != null) {
                ferry.close();
            }
            if (ferryNone != null) {
                ferryNone.close();
            }
            if (globus != null) {
                globus.close();
            }
            Scratch.deleteTree(base);
        }
        report(workloads);
    }

    private static String key(Workload workload, boolean verify) {
        return workload.name() + (verify ? ", -verify-checksum" : "");
    }

    /** One upload into a fresh directory, deleted after the timing; returns seconds. */
    private double upload(Workload workload, boolean verify, String url, Path runs, String server)
            throws IOException, InterruptedException {
        Path destination = Scratch.writableByGlobus(Files.createTempDirectory(runs, server + "-"));
        List<String> command = new ArrayList<>(List.of("globus-url-copy"));
        command.addAll(workload.flags());
        if (verify) {
            command.add("-verify-checksum");
        }
        command.add(workload.source());
        command.add(url + destination + "/" + (workload.tree() ? "" : "big"));
        double s = Command.check(command, 1800).elapsedNanos() / 1e9;
        Scratch.deleteTree(destination);
        return s;
    }

    private void report(List<Workload> workloads) {
        for (Workload workload : workloads) {
            Map<String, List<Double>> plain = seconds.get(key(workload, false));
            Map<String, List<Double>> verified = seconds.get(key(workload, true));
            Map<String, Double> cost = new LinkedHashMap<>();
            for (String server : SERVERS) {
                double with = median(verified.get(server));
                double without = median(plain.get(server));
                cost.put(server, with / without);
                table.note(String.format(
                        Locale.ROOT,
                        "verify: %s on %s: %.2f s without, %.2f s with -verify-checksum (medians of %d)",
                        workload.name(),
                        name(server),
                        without,
                        with,
                        verified.get(server).size()));
            }
            String rows = workload.name() + ", with / without -verify-checksum";
            table.add(new Result(
                    "verify",
                    rows + ", in flight",
                    "x",
                    cost.get("ferry"),
                    name("globus"),
                    cost.get("globus"),
                    Double.NaN,
                    true));
            table.add(new Result(
                    "verify",
                    rows + ", none",
                    "x",
                    cost.get("ferry-none"),
                    name("globus"),
                    cost.get("globus"),
                    Double.NaN,
                    true));
            table.add(new Result(
                    "verify",
                    key(workload, true) + ", seconds",
                    "s",
                    median(verified.get("ferry")),
                    name("ferry-none"),
                    median(verified.get("ferry-none")),
                    Double.NaN,
                    true));
            table.add(new Result(
                    "verify",
                    workload.name() + ", no verify, seconds",
                    "s",
                    median(plain.get("ferry")),
                    name("ferry-none"),
                    median(plain.get("ferry-none")),
                    Double.NaN,
                    true));
            table.add(new Result(
                    "verify",
                    key(workload, true) + ", seconds",
                    "s",
                    median(verified.get("ferry")),
                    name("globus"),
                    median(verified.get("globus")),
                    Double.NaN,
                    true));
        }
    }

    private static String name(String server) {
        return switch (server) {
            case "globus" -> "globus-gridftp-server";
            case "ferry-none" -> "ferry-gridftp --inflight-checksums none";
            default -> "ferry-gridftp (in flight: MD5)";
        };
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
