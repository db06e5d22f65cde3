package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.server.multicast.MulticastTree;

/**
 * One file from one source to four destinations, with the source's link the bottleneck: a
 * ferry-gridftp source and four ferry-gridftp destinations ({@code --multicast}), each on a host
 * of its own ({@link NamespaceHosts}: network namespaces, veth pairs to a bridge), the source's
 * veth limited to {@value #RATE} ({@code tc ... tbf}); the client on a sixth host. Multicast: one
 * third-party transfer from the source to d1 with the tree of the other three ({@code cc=2}: d1
 * forwards to d2 and d3, d2 to d4). The peer: four separate third-party transfers, one after the
 * other, from the same source. Reported: destination bytes per second (4 x the file over the
 * elapsed time; target multicast / separate >= 3) and the bytes that left the source's veth
 * (headers included) over the file's size. Each destination's copy is compared with the source
 * after every run. Best of {@code --repeat} rounds, the order turned every round (multicast first
 * in the first), after an untimed 1 MiB warm-up of both; the source bytes are the best round's.
 */
final class MulticastBench {

    static final String RATE = "400mbit";

    private static final Pattern TX_BYTES = Pattern.compile("\"tx\":\\{\"bytes\":(\\d+)");

    private final BenchOptions options;
    private final ResultTable table;

    MulticastBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    void run() throws Exception {
        long size = Math.max(16L << 20, options.diskFileBytes() / 8);
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(options.memoryDirectory());
        Files.setPosixFilePermissions(
                options.memoryDirectory(), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path tmpfs = Scratch.directory(options.memoryDirectory().resolve("multicast"));
        Path sourceRoot = Scratch.directory(tmpfs.resolve("src"));
        Scratch.file(sourceRoot.resolve("big"), size, 23);
        Scratch.file(sourceRoot.resolve("warm"), 1 << 20, 24);
        List<String> names = List.of("src", "d1", "d2", "d3", "d4", "client");
        List<FerryServer> servers = new ArrayList<>();
        try (NamespaceHosts hosts = NamespaceHosts.create(names)) {
            NamespaceHosts.Host src = hosts.host("src");
            servers.add(FerryServer.start(options.repoRoot(), sourceRoot, logs.resolve("multicast-src.log"), src));
            List<Path> roots = new ArrayList<>();
            List<String> destinations = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                Path root = Scratch.directory(tmpfs.resolve("d" + i));
                roots.add(root);
                FerryServer server = FerryServer.start(
                        options.repoRoot(),
                        root,
                        logs.resolve("multicast-d" + i + ".log"),
                        hosts.host("d" + i),
                        List.of("--multicast"));
                servers.add(server);
                destinations.add(server.url() + "/");
            }
            Command.check(
                    List.of(
                            "tc",
                            "-n",
                            src.namespace(),
                            "qdisc",
                            "replace",
                            "dev",
                            src.veth(),
                            "root",
                            "tbf",
                            "rate",
                            RATE,
                            "burst",
                            "256kb",
                            "latency",
                            "50ms"),
                    30);
            String sourceUrl = servers.get(0).url() + "/";
            NamespaceHosts.Host client = hosts.host("client");
            client(client, "multicast", sourceUrl, "/warm", destinations);
            client(client, "separate", sourceUrl, "/warm", destinations);

            // best of --repeat rounds, the order turned every round: neither mode always runs first
            int rounds = Math.max(1, options.repeat());
            double multicastSeconds = Double.MAX_VALUE;
            double separateSeconds = Double.MAX_VALUE;
            long multicastOut = 0;
            long separateOut = 0;
            for (int round = 0; round < rounds; round++) {
                for (String mode :
                        round % 2 == 0 ? List.of("multicast", "separate") : List.of("separate", "multicast")) {
                    long before = txBytes(src);
                    double seconds = client(client, mode, sourceUrl, "/big", destinations);
                    long out = txBytes(src) - before;
                    check(sourceRoot.resolve("big"), roots, mode);
                    if (mode.equals("multicast") && seconds < multicastSeconds) {
                        multicastSeconds = seconds;
                        multicastOut = out;
                    } else if (mode.equals("separate") && seconds < separateSeconds) {
                        separateSeconds = seconds;
                        separateOut = out;
                    }
                }
            }

            String what = String.format(
                    Locale.ROOT,
                    "one %d MiB file to 4 destinations, source link %s (tc tbf), best of %d",
                    size >> 20,
                    RATE,
                    rounds);
            table.add(new Result(
                    "multicast",
                    what + ": destination Mbit/s (4 x file / elapsed)",
                    "Mbit/s",
                    4 * size * 8 / multicastSeconds / 1e6,
                    "4 separate third-party transfers",
                    4 * size * 8 / separateSeconds / 1e6,
                    3.0,
                    false));
            table.add(new Result(
                    "multicast",
                    "bytes out of the source's veth (headers included) / file size",
                    "x file",
                    (double) multicastOut / size,
                    "4 separate third-party transfers",
                    (double) separateOut / size,
                    Double.NaN,
                    true));
            table.note(String.format(
                    Locale.ROOT,
                    "multicast: best %.2f s multicast, %.2f s separate; source veth sent %d and %d bytes for a %d-byte file",
                    multicastSeconds,
                    separateSeconds,
                    multicastOut,
                    separateOut,
                    size));
        } finally {
            for (FerryServer server : servers) {
                server.close();
            }
        }
    }

    /** Runs {@link Client} on the client host; @return its elapsed seconds. */
    private static double client(
            NamespaceHosts.Host host, String mode, String sourceUrl, String path, List<String> destinations)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(
                java, "-cp", System.getProperty("java.class.path"), Client.class.getName(), mode, sourceUrl, path));
        command.addAll(destinations);
        Command.Outcome outcome = Command.check(host.exec(command), 900);
        Matcher matcher = Pattern.compile("elapsed_ns=(\\d+)").matcher(outcome.output());
        if (!matcher.find()) {
            throw new IllegalStateException("the multicast client printed no time:\n" + outcome.output());
        }
        return Long.parseLong(matcher.group(1)) / 1e9;
    }

    private static long txBytes(NamespaceHosts.Host host) throws IOException, InterruptedException {
        Command.Outcome outcome = Command.check(
                List.of("ip", "-n", host.namespace(), "-s", "-j", "link", "show", "dev", host.veth()), 30);
        Matcher matcher = TX_BYTES.matcher(outcome.output().replace(" ", ""));
        if (!matcher.find()) {
            throw new IllegalStateException("no tx bytes in: " + outcome.output());
        }
        return Long.parseLong(matcher.group(1));
    }

    /** Every destination holds the source's bytes; then the copies go, for the next run. */
    private static void check(Path source, List<Path> roots, String mode) throws IOException {
        for (Path root : roots) {
            Path copy = root.resolve(source.getFileName());
            if (Files.mismatch(source, copy) != -1) {
                throw new IllegalStateException(mode + ": " + copy + " differs from the source");
            }
            Files.delete(copy);
        }
    }

    /**
     * The client, run on the client host: {@code multicast|separate SOURCE_URL PATH D1 D2 D3 D4};
     * prints {@code elapsed_ns=N} (the transfers only, not the JVM's start).
     */
    static final class Client {
        private Client() {}

        public static void main(String[] args) throws Exception {
            String mode = args[0];
            GridFtpUrl source = GridFtpUrl.parse(args[1]);
            String path = args[2];
            List<String> destinations = List.of(args).subList(3, args.length);
            TransferOptions p4 = TransferOptions.extendedBlock(4);
            try (GridFtpClient client = new GridFtpClient(Duration.ofMinutes(10));
                    GridFtpSession src = client.open(source)) {
                long start = System.nanoTime();
                if (mode.equals("multicast")) {
                    try (GridFtpSession first = client.open(GridFtpUrl.parse(destinations.get(0)))) {
                        MulticastTree tree = new MulticastTree(
                                destinations.subList(1, destinations.size()), MulticastTree.DEFAULT_CAST_COUNT, 4);
                        first.setDiskStack(tree.diskStack());
                        src.sendTo(path, first, path, p4, TransferListener.NONE);
                    }
                } else {
                    for (String destination : destinations) {
                        try (GridFtpSession next = client.open(GridFtpUrl.parse(destination))) {
                            src.sendTo(path, next, path, p4, TransferListener.NONE);
                        }
                    }
                }
                System.out.println("elapsed_ns=" + (System.nanoTime() - start));
            }
        }
    }
}
