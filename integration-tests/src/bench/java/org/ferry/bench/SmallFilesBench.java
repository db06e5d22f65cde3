package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;

/**
 * Lots of small files, third-party (the client drives two control channels and the data goes
 * server to server): Ferry against {@code globus-url-copy -r} with {@code -pp}, {@code -cc 4} and
 * {@code -pp -cc 4}, and against {@code rsync -a} over ssh on loopback. Each side lists the source
 * directory inside its timing. Ferry moves the files the way the embedded mover runs a chunk:
 * {@code lanes} session pairs, each one pipelined MODE E batch ({@link GridFtpSession#sendAll}),
 * which sends small files as tar streams between Ferry servers; a second Ferry figure with tar
 * streams off (one STOR/RETR per file) is reported beside it, and a third with Ferry's client
 * driving two sessions on the globus server (what a Ferry service does with Globus endpoints), so
 * the client's per-file path is measured against globus-url-copy on the same servers.
 *
 * <p>Fairness: the contenders run in interleaved rounds and the best round of each counts; every
 * run writes into a fresh directory, and all of them are deleted only at the end. Deleting right
 * before a run would tax that run: ext4 without a journal (this machine's root) skips recently
 * deleted inodes when it allocates new ones, and a create right after thousands of deletes was seen
 * to cost ten times more. Leftovers of an earlier benchmark run are deleted first, then written out
 * ({@code sync}) and left to age past that window; {@code bench/run} goes further and puts the trees
 * on a fresh journaled ext4 of their own. Each run starts after a {@code sync}, so that none pays
 * for the writeback of the run before it.
 */
final class SmallFilesBench {

    /** Transfer commands in flight per session pair (globus-url-copy -pp keeps about 20). */
    private static final int PIPELINE_DEPTH = 20;
    /** Ferry's client, tar streams off, moving the files between two sessions on the globus server. */
    private static final String FERRY_ON_GLOBUS = "Ferry client on globus servers";
    /** Untimed passes of Ferry's tar path before the rounds. */
    private static final int WARMUP_PASSES = 6;
    /** ext4 counts an inode as recently deleted for 5 s once its table block is written. */
    private static final long RECENTLY_DELETED_MILLIS = 6_000;

    private final BenchOptions options;
    private final ResultTable table;

    SmallFilesBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** One contender: moves the source tree into a fresh directory; @return elapsed nanoseconds. */
    private interface Contender {
        long run(Path destination) throws Exception;
    }

    /** Runs the benchmark and adds its rows. */
    void run() throws Exception {
        int count = options.smallFileCount();
        Path base = Scratch.directory(options.smallFilesDirectory());
        String sourceName = "src-" + count; // one source tree per file count: --quick and full runs can alternate
        Path source = Scratch.directory(base.resolve(sourceName));
        for (int i = 0; i < count; i++) {
            Scratch.file(source.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
        }
        try (Stream<Path> extra = Files.list(source)) {
            if (extra.count() != count) {
                throw new IllegalStateException(source + " holds other files: delete it and run again");
            }
        }
        Path runs = base.resolve("runs");
        if (Files.exists(runs)) {
            Scratch.deleteTree(runs);
            Command.run(List.of("sync"), 120);
            Thread.sleep(RECENTLY_DELETED_MILLIS);
        }
        Scratch.directory(runs);
        String fileSystem = Files.getFileStore(base).type();
        Path logs = options.outputDirectory().resolve("logs");
        String scenario = count + " x " + options.smallFileBytes() / 1024 + " KiB on " + fileSystem;

        Map<String, Contender> contenders = new LinkedHashMap<>();
        Map<String, Double> best = new LinkedHashMap<>();
        try (GlobusServer globus = GlobusServer.start(logs.resolve("globus-small.pid"));
                FerryServer ferry = FerryServer.start(options.repoRoot(), base, logs.resolve("ferry-small.log"));
                GridFtpClient client = new GridFtpClient()) {
            for (List<String> flags : List.of(List.of("-pp"), List.of("-cc", "4"), List.of("-pp", "-cc", "4"))) {
                contenders.put("globus-url-copy " + String.join(" ", flags), destination -> {
                    Scratch.writableByGlobus(destination);
                    List<String> command = new ArrayList<>(List.of("globus-url-copy", "-r", "-cd"));
                    command.addAll(flags);
                    command.addAll(List.of(globus.url() + source + "/", globus.url() + destination + "/"));
                    return Command.check(command, 1800).elapsedNanos();
                });
            }
            if (options.sshKey() != null && Files.isReadable(options.sshKey())) {
                contenders.put(
                        "rsync -a over ssh",
                        destination -> Command.check(
                                        List.of(
                                                "rsync",
                                                "-a",
                                                "-e",
                                                "ssh -i " + options.sshKey()
                                                        + " -o BatchMode=yes -o StrictHostKeyChecking=no"
                                                        + " -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
                                                source + "/",
                                                "root@127.0.0.1:" + destination + "/"),
                                        1800)
                                .elapsedNanos());
            }
            TransferOptions tar = TransferOptions.extendedBlock(1);
            TransferOptions perFile = tar.withTarStreams(false);
            contenders.put(
                    "Ferry", destination -> ferryThirdParty(client, ferry.url(), base, source, destination, tar));
            contenders.put(
                    "Ferry, tar streams off",
                    destination -> ferryThirdParty(client, ferry.url(), base, source, destination, perFile));
            // the path a Ferry service takes with Globus endpoints: its client driving the globus pair
            contenders.put(
                    FERRY_ON_GLOBUS,
                    destination -> ferryThirdParty(
                            client,
                            globus.url(),
                            Path.of("/"),
                            source,
                            Scratch.writableByGlobus(destination),
                            perFile));

            // JIT warm-up of the fresh server JVM and of this client (a server and a mover run for days;
            // C2 was seen compiling for a quarter of the CPU after two passes): not timed
            for (int pass = 0; pass < WARMUP_PASSES; pass++) {
                ferryThirdParty(client, ferry.url(), base, source, runs.resolve("warmup-tar-" + pass), tar);
            }
            ferryThirdParty(client, ferry.url(), base, source, runs.resolve("warmup-per-file"), perFile);
            ferryThirdParty(
                    client,
                    globus.url(),
                    Path.of("/"),
                    source,
                    Scratch.writableByGlobus(runs.resolve("warmup-on-globus")),
                    perFile);

            for (int round = 1; round <= options.repeat(); round++) {
                for (Map.Entry<String, Contender> contender : contenders.entrySet()) {
                    Path destination =
                            runs.resolve(round + "-" + contender.getKey().replaceAll("[^A-Za-z0-9]+", "-"));
                    // the previous run's dirty pages written out first, untimed: nobody pays for another's writeback
                    Command.run(List.of("sync"), 600);
                    long elapsed = contender.getValue().run(destination);
                    requireCopy(destination, count);
                    best.merge(contender.getKey(), Rates.perSecond(count, elapsed), Math::max);
                }
            }
        } finally {
            Scratch.deleteTree(runs);
        }

        double ferryRate = best.remove("Ferry");
        double perFileRate = best.remove("Ferry, tar streams off");
        double onGlobusRate = best.remove(FERRY_ON_GLOBUS);
        Double rsync = best.remove("rsync -a over ssh");
        String bestGlobus = best.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        String ferryScenario = scenario + ", Ferry cc " + options.smallFileLanes() + ", best of " + options.repeat();
        for (Map.Entry<String, Double> entry : best.entrySet()) {
            boolean isBest = entry.getKey().equals(bestGlobus);
            table.add(new Result(
                    "smallfiles",
                    ferryScenario,
                    "files/s",
                    ferryRate,
                    entry.getKey() + (isBest ? " (best)" : ""),
                    entry.getValue(),
                    isBest ? 1.5 : Double.NaN,
                    false));
        }
        table.add(new Result(
                "smallfiles",
                ferryScenario,
                "files/s",
                ferryRate,
                "rsync -a over ssh",
                rsync == null ? Double.NaN : rsync,
                1.0,
                false));
        table.add(new Result(
                "smallfiles",
                scenario + ", Ferry tar streams off",
                "files/s",
                perFileRate,
                bestGlobus,
                best.get(bestGlobus),
                Double.NaN,
                false));
        table.add(new Result(
                "smallfiles",
                scenario + ", " + FERRY_ON_GLOBUS,
                "files/s",
                onGlobusRate,
                bestGlobus,
                best.get(bestGlobus),
                Double.NaN,
                false));
    }

    /**
     * @return nanoseconds from the first login to the last file's 226, listing included
     */
    private long ferryThirdParty(
            GridFtpClient client, String url, Path root, Path source, Path destination, TransferOptions transfer)
            throws IOException, InterruptedException, ExecutionException {
        GridFtpUrl server = GridFtpUrl.parse(url);
        String sourceDir = "/" + root.relativize(source);
        String destinationDir = "/" + root.relativize(destination);
        int lanes = options.smallFileLanes();
        ExecutorService pool = Executors.newFixedThreadPool(lanes);
        try {
            long start = System.nanoTime();
            List<FileInfo> listing = new ArrayList<>();
            try (GridFtpSession lister = client.open(server)) {
                for (FileInfo info : lister.list(sourceDir)) {
                    if (info.type() == FileInfo.Type.FILE) {
                        listing.add(info);
                    }
                }
                if (!Files.isDirectory(destination)) { // made beforehand when globus (gsuser) must write it
                    lister.makeDirectory(destinationDir);
                }
            }
            // the files split evenly over the lanes, sizes from the listing as the planner has them
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < lanes; i++) {
                List<FilePair> share = new ArrayList<>();
                for (int f = i; f < listing.size(); f += lanes) {
                    FileInfo file = listing.get(f);
                    share.add(new FilePair(
                            sourceDir + "/" + file.name(), destinationDir + "/" + file.name(), file.sizeBytes()));
                }
                running.add(pool.submit(() -> {
                    try (GridFtpSession from = client.open(server);
                            GridFtpSession to = client.open(server)) {
                        from.sendAll(share, to, transfer, PIPELINE_DEPTH, TransferListener.NONE);
                    }
                    return null;
                }));
            }
            for (Future<?> lane : running) {
                lane.get();
            }
            return System.nanoTime() - start;
        } finally {
            pool.shutdownNow();
        }
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
}
