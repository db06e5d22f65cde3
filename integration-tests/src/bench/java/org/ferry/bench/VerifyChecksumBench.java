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
 * first (servers run warm). The cases whose names end in {@code at 100 MiB/s} run only on the two
 * ferry-gridftp configurations, each capped at 100 MiB/s ({@code --data-rate-limit 100M}, about a
 * 1 Gbit/s link; globus-gridftp-server has no such cap), with a 1 GiB big file: where the link is
 * slower than the hashing. {@code --cases REGEX} picks cases by name.
 */
final class VerifyChecksumBench {

    private static final List<String> SERVERS = List.of("globus", "ferry-none", "ferry");
    private static final List<String> LIMITED = List.of("ferry-none-limited", "ferry-limited");

    private final BenchOptions options;
    private final ResultTable table;
    /** case -> server -> seconds per round */
    private final Map<String, Map<String, List<Double>>> seconds = new LinkedHashMap<>();

    VerifyChecksumBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    private record Workload(String name, String source, List<String> flags, boolean tree, List<String> servers) {}

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
        Path gib = base.resolve("gib");
        Path runs = Scratch.directory(base.resolve("runs"));
        String smallName = String.format(Locale.ROOT, "%,d x 50 KiB upload, -pp", count);
        List<Workload> workloads = new ArrayList<>(List.of(
                new Workload(smallName, "file://" + small + "/", List.of("-r", "-cd", "-pp"), true, SERVERS),
                new Workload(
                        Rates.size(bigBytes) + " upload, -p 1 (stream)", "file://" + big, List.of(), false, SERVERS),
                new Workload(
                        smallName + ", at 100 MiB/s",
                        "file://" + small + "/",
                        List.of("-r", "-cd", "-pp"),
                        true,
                        LIMITED),
                new Workload("1 GiB upload, -p 1 (stream), at 100 MiB/s", "file://" + gib, List.of(), false, LIMITED)));
        workloads.removeIf(w -> !options.runsCase(w.name()));
        if (workloads.stream().anyMatch(w -> w.source().equals("file://" + big))) {
            Scratch.file(big, bigBytes, 23);
        }
        if (workloads.stream().anyMatch(w -> w.source().equals("file://" + gib))) {
            Scratch.file(gib, 1L << 30, 29);
        }
        java.util.Set<String> wanted = new java.util.HashSet<>();
        workloads.forEach(w -> wanted.addAll(w.servers()));
        GlobusServer globus = null;
        List<FerryServer> ferries = new ArrayList<>();
        try {
            Map<String, String> urls = new LinkedHashMap<>();
            if (wanted.contains("globus")) {
                globus = GlobusServer.start(logs.resolve("globus-verify.pid"));
                urls.put("globus", globus.url());
            }
            for (String server : List.of("ferry-none", "ferry", "ferry-none-limited", "ferry-limited")) {
                if (!wanted.contains(server)) {
                    continue;
                }
                List<String> flags = new ArrayList<>(
                        List.of("--inflight-checksums", server.startsWith("ferry-none") ? "none" : "MD5"));
                if (server.endsWith("-limited")) {
                    flags.addAll(List.of("--data-rate-limit", "100M"));
                }
                FerryServer ferry = FerryServer.start(
                        options.repoRoot(), Path.of("/"), logs.resolve(server + "-verify.log"), null, flags);
                ferries.add(ferry);
                urls.put(server, ferry.url().replace("anonymous:bench@", ""));
            }
            for (int round = 0; round <= options.repeat(); round++) {
                boolean warmup = round == 0;
                System.out.println("verify " + (warmup ? "warm-up" : "round " + round) + " (load "
                        + BenchMain.loadAverage() + ")");
                for (Workload workload : workloads) {
                    List<String> order = new ArrayList<>(workload.servers());
                    if (round % 2 == 1) {
                        java.util.Collections.reverse(order);
                    }
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
            for (FerryServer ferry : ferries) {
                ferry.close();
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
            boolean limited = workload.servers().equals(LIMITED);
            String on = limited ? "ferry-limited" : "ferry";
            String off = limited ? "ferry-none-limited" : "ferry-none";
            Map<String, Double> cost = new LinkedHashMap<>();
            for (String server : workload.servers()) {
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
                    key(workload, true) + ", seconds",
                    "s",
                    median(verified.get(on)),
                    name(off),
                    median(verified.get(off)),
                    Double.NaN,
                    true));
            table.add(new Result(
                    "verify",
                    workload.name() + ", no verify, seconds",
                    "s",
                    median(plain.get(on)),
                    name(off),
                    median(plain.get(off)),
                    Double.NaN,
                    true));
            if (limited) {
                continue;
            }
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
            case "ferry-none-limited" -> "ferry-gridftp none, 100 MiB/s";
            case "ferry-limited" -> "ferry-gridftp MD5, 100 MiB/s";
            default -> "ferry-gridftp --inflight-checksums MD5";
        };
    }

    private static double median(List<Double> values) {
        double[] sorted =
                values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
