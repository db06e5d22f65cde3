package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
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
 * Lots of small files, third-party (the mover drives two servers' control channels and the data
 * goes server to server): Ferry against {@code globus-url-copy -r} with {@code -pp}, {@code -cc 4}
 * and {@code -pp -cc 4}, and against {@code rsync -a} over ssh on loopback. Each side lists the
 * source directory inside its timing. Ferry moves the files the way the embedded mover's
 * ChunkWorker does: {@code lanes} session pairs taking files from one queue.
 */
final class SmallFilesBench {

    private static final int WARMUP_FILES = 300;
    /** Transfer commands in flight per session pair (globus-url-copy -pp keeps about 20). */
    private static final int PIPELINE_DEPTH = 20;

    private final BenchOptions options;
    private final ResultTable table;

    SmallFilesBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** Runs the benchmark and adds its rows. */
    void run() throws IOException, InterruptedException, ExecutionException {
        int count = options.smallFileCount();
        Path base = Scratch.directory(options.dataDirectory().resolve("small"));
        // one source tree per file count, so that --quick and full runs can follow each other
        String sourceName = "src-" + count;
        Path source = Scratch.directory(base.resolve(sourceName));
        for (int i = 0; i < count; i++) {
            Scratch.file(source.resolve(String.format("f%05d", i)), options.smallFileBytes(), i);
        }
        try (Stream<Path> extra = Files.list(source)) {
            if (extra.count() != count) {
                throw new IllegalStateException(source + " holds other files: delete it and run again");
            }
        }
        Path logs = options.outputDirectory().resolve("logs");
        String scenario = count + " x " + options.smallFileBytes() / 1024 + " KiB";

        Map<String, Double> globus = new LinkedHashMap<>();
        try (GlobusServer server = GlobusServer.start(logs.resolve("globus-small.pid"))) {
            for (List<String> flags : List.of(List.of("-pp"), List.of("-cc", "4"), List.of("-pp", "-cc", "4"))) {
                Path destination = Scratch.writableByGlobus(base.resolve("globus-dst"));
                List<String> command = new ArrayList<>(List.of("globus-url-copy", "-r", "-cd"));
                command.addAll(flags);
                command.addAll(List.of(server.url() + source + "/", server.url() + destination + "/"));
                Command.Outcome outcome = Command.check(command, 1800);
                requireCopy(destination, count);
                globus.put("globus-url-copy " + String.join(" ", flags), Rates.perSecond(count, outcome.elapsedNanos()));
            }
        }

        double rsync = Double.NaN;
        if (options.sshKey() != null && Files.isReadable(options.sshKey())) {
            Path destination = base.resolve("rsync-dst");
            Scratch.deleteTree(destination);
            Command.Outcome outcome = Command.check(List.of("rsync", "-a", "-e", "ssh -i " + options.sshKey()
                    + " -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
                    source + "/", "root@127.0.0.1:" + destination + "/"), 1800);
            requireCopy(destination, count);
            rsync = Rates.perSecond(count, outcome.elapsedNanos());
        }

        double ferry;
        try (FerryServer server = FerryServer.start(options.repoRoot(), base, logs.resolve("ferry-small.log"));
                GridFtpClient client = new GridFtpClient()) {
            // JIT warm-up of the fresh server and client JVMs (a server and a mover run for days): not timed
            Scratch.deleteTree(base.resolve("ferry-warmup"));
            ferryThirdParty(client, server.url(), "/" + sourceName, "/ferry-warmup", WARMUP_FILES);
            Scratch.deleteTree(base.resolve("ferry-warmup"));
            Path destination = base.resolve("ferry-dst");
            Scratch.deleteTree(destination);
            long elapsed = ferryThirdParty(client, server.url(), "/" + sourceName, "/ferry-dst", Integer.MAX_VALUE);
            requireCopy(destination, count);
            ferry = Rates.perSecond(count, elapsed);
        }

        String best = globus.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        String ferryScenario = scenario + ", Ferry cc " + options.smallFileLanes();
        for (Map.Entry<String, Double> entry : globus.entrySet()) {
            boolean isBest = entry.getKey().equals(best);
            table.add(new Result("smallfiles", ferryScenario, "files/s", ferry,
                    entry.getKey() + (isBest ? " (best)" : ""), entry.getValue(), isBest ? 1.5 : Double.NaN, false));
        }
        table.add(new Result("smallfiles", ferryScenario, "files/s", ferry, "rsync -a over ssh", rsync, 1.0, false));
    }

    /**
     * @param limit at most this many files (the first ones listed)
     * @return nanoseconds from the first login to the last file's 226, listing included
     */
    private long ferryThirdParty(GridFtpClient client, String url, String sourceDir, String destinationDir, int limit)
            throws IOException, InterruptedException, ExecutionException {
        GridFtpUrl server = GridFtpUrl.parse(url);
        int lanes = options.smallFileLanes();
        ExecutorService pool = Executors.newFixedThreadPool(lanes);
        try {
            long start = System.nanoTime();
            ConcurrentLinkedQueue<String> names = new ConcurrentLinkedQueue<>();
            try (GridFtpSession lister = client.open(server)) {
                for (FileInfo info : lister.list(sourceDir)) {
                    if (info.type() == FileInfo.Type.FILE && names.size() < limit) {
                        names.add(info.name());
                    }
                }
                lister.makeDirectory(destinationDir);
            }
            // the files split evenly over the lanes; each lane one pipelined MODE E batch over cached
            // data connections, as the embedded mover runs a chunk
            List<String> all = new ArrayList<>(names);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < lanes; i++) {
                List<FilePair> share = new ArrayList<>();
                for (int f = i; f < all.size(); f += lanes) {
                    share.add(new FilePair(sourceDir + "/" + all.get(f), destinationDir + "/" + all.get(f)));
                }
                running.add(pool.submit(() -> {
                    try (GridFtpSession from = client.open(server); GridFtpSession to = client.open(server)) {
                        from.sendAll(share, to, TransferOptions.extendedBlock(1), PIPELINE_DEPTH, TransferListener.NONE);
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
            }).count();
            if (complete != count) {
                throw new IllegalStateException(destination + " has " + complete + " complete files of " + count);
            }
        }
    }
}
