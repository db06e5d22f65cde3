package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The service against globus-gridftp-server (issue 3's cells "Ferry -> globus-gridftp-server" for
 * {@code -r -cd}, {@code -sync} and {@code -cc}, where in Ferry the service does the recursion,
 * the sync levels and the concurrency): real {@code ferry-server}, {@code ferry} CLI and
 * {@code ferry-gridftp} processes, one endpoint on a real anonymous globus-gridftp-server (paths
 * are absolute file system paths; its sessions run as {@value GlobusGridFtpServer#USER}) and one
 * on ferry-gridftp. Every test compares bytes on disk and the task's counters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceGlobusInteropTest {

    private static final Pattern TASK_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final String GLOBUS = "admin#globus";
    private static final String FERRY = "admin#ferry";
    private static final String[] SYNC_LEVELS = {"exists", "size", "mtime", "checksum"};

    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path ferryRoot;
    private Path globusRoot; // owned by the globus session user, outside the JUnit temp dir (mode 700)
    private GlobusGridFtpServer globus;
    private FerryServerProcess server;
    private CliRunner cli;

    /** One endpoint as the test sees it: its name in Ferry and where its paths live on disk. */
    private record Side(String endpoint, Path root, boolean isGlobus) {
        /** @return the endpoint path of {@code relative}: absolute on globus, from the root on ferry-gridftp */
        String path(String relative) {
            return isGlobus ? root.resolve(relative).toString() : "/" + relative;
        }

        /** @return {@code ENDPOINT:PATH} for the CLI */
        String spec(String relative) {
            return endpoint + ":" + path(relative);
        }

        /** @return where {@code relative} is on disk */
        Path local(String relative) {
            return root.resolve(relative);
        }

        /** Lets the globus session user write what the test created as another user. */
        void handOver(Path path) throws IOException {
            if (isGlobus) {
                GlobusGridFtpServer.chown(path);
            }
        }
    }

    /** Which way a task runs. */
    enum Direction {
        FERRY_TO_GLOBUS,
        GLOBUS_TO_FERRY
    }

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        GlobusTools.assumeInstalled();
        Launchers launchers = Launchers.fromBuild();
        ferryRoot = Files.createDirectories(work.resolve("ferry-root"));
        globusRoot = GlobusGridFtpServer.createRoot();
        globus = started(GlobusGridFtpServer.start());
        FerryGridFtpProcess ferry = started(FerryGridFtpProcess.start(launchers, ferryRoot, work.resolve("ferry.log")));
        // no reused sessions: the concurrency cases count the globus session processes each task
        // starts (reuse is ChunkRunnerTest's and the manytasks bench's)
        server = started(FerryServerProcess.start(
                launchers,
                Files.createDirectories(work.resolve("home")),
                work.resolve("server.log"),
                List.of("--ferry.transfer.idle-session-timeout=0s")));
        cli = new CliRunner(launchers, server, work);
        expectSuccess(cli.run(60, "endpoint", "add", GLOBUS, "--url", globus.base()));
        expectSuccess(cli.run(60, "endpoint", "add", FERRY, "--url", ferry.url()));
    }

    private <T extends AutoCloseable> T started(T process) {
        processes.add(0, process);
        return process;
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable process : processes) {
            process.close();
        }
        GlobusGridFtpServer.deleteTree(globusRoot);
    }

    private Side globusSide() {
        return new Side(GLOBUS, globusRoot, true);
    }

    private Side ferrySide() {
        return new Side(FERRY, ferryRoot, false);
    }

    /**
     * {@code ferry transfer --recursive} of a tree from globus to Ferry and back to a fresh
     * directory on globus: nested and empty directories, empty files, 300 small files and three
     * big ones (one above the 16 MiB a lane batches), all in one chunk of concurrency 2.
     */
    @Test
    void recursiveTreeGoesToFerryAndBackToGlobus() throws Exception {
        Side globusSide = globusSide();
        Side ferrySide = ferrySide();
        Path tree = globusSide.local("tree");
        TestTrees.generateAscii(tree, 300, new long[] {3L << 20, 6L << 20, 20L << 20}, 20260301L);
        globusSide.handOver(tree);
        Map<String, String> expected = TreeDigest.of(tree);

        JsonNode there;
        try (GlobusSessionSampler sessions = GlobusSessionSampler.start(globus)) {
            there = transfer(globusSide.spec("tree"), ferrySide.spec("tree-copy"));
            assertThat(sessions.mostAtOnceAfterFirst())
                    .as("globus sessions as the source: " + sessions)
                    .isGreaterThanOrEqualTo(2);
        }
        assertThat(TreeDigest.of(ferrySide.local("tree-copy"))).isEqualTo(expected);
        assertCounters(there, tree, expected);

        JsonNode back;
        try (GlobusSessionSampler sessions = GlobusSessionSampler.start(globus)) {
            back = transfer(ferrySide.spec("tree-copy"), globusSide.spec("tree-back"));
            assertThat(sessions.mostAtOnceAfterFirst())
                    .as("globus sessions as the destination: " + sessions)
                    .isGreaterThanOrEqualTo(2);
        }
        assertThat(TreeDigest.of(globusSide.local("tree-back"))).isEqualTo(expected);
        assertCounters(back, tree, expected);
    }

    /**
     * Globus as the destination: every level (its MLSD facts decide them all). Globus as the
     * source: the levels that read its facts and checksums beyond the size (2 and 3).
     */
    static Stream<Arguments> syncCases() {
        return Stream.of(
                Arguments.of(Direction.FERRY_TO_GLOBUS, new int[] {0, 1, 2, 3}),
                Arguments.of(Direction.GLOBUS_TO_FERRY, new int[] {2, 3}));
    }

    /**
     * Sync levels on re-runs into copies of one destination after the source changed: one file
     * grew, two kept their size with new content (one with an mtime older than the destination's,
     * one newer), one is new, two are untouched. Each level must write exactly the files it
     * implies, seen from disk (a written file gets a new inode or ctime), leave the others as they
     * were, and count them as transferred or skipped.
     */
    @ParameterizedTest(name = "{0}, levels {1}")
    @MethodSource("syncCases")
    void syncLevelsWriteExactlyWhatEachLevelImplies(Direction direction, int[] levels) throws Exception {
        Side source = direction == Direction.FERRY_TO_GLOBUS ? ferrySide() : globusSide();
        Side destination = direction == Direction.FERRY_TO_GLOBUS ? globusSide() : ferrySide();
        String name = "sync-" + direction.name().toLowerCase();
        Path src = source.local(name + "-src");
        Instant old = Instant.parse("2020-01-01T00:00:00Z");
        write(src.resolve("unchanged.txt"), "the same at every level\n".getBytes(StandardCharsets.US_ASCII), old);
        write(src.resolve("sub/kept.txt"), "also the same\n".getBytes(StandardCharsets.US_ASCII), old);
        write(src.resolve("grown.bin"), bytes(1000, 1), old);
        write(src.resolve("same-size-older.bin"), bytes(4096, 2), old);
        write(src.resolve("same-size-newer.bin"), bytes(4096, 3), old);
        source.handOver(src);

        JsonNode baseline = transfer(source.spec(name + "-src"), destination.spec(name + "-base"));
        assertThat(baseline.path("files_transferred").asLong()).isEqualTo(5);
        Path base = destination.local(name + "-base");
        Map<String, String> baseDigest = TreeDigest.of(base);
        assertThat(baseDigest).isEqualTo(TreeDigest.of(src));
        for (int level : levels) {
            copyTree(base, destination.local(name + "-" + level));
            destination.handOver(destination.local(name + "-" + level));
        }

        // mtimes relative to the destination's (whatever the baseline left there), whole minutes
        // apart so that second-resolution Modify facts order them
        append(
                src.resolve("grown.bin"),
                bytes(500, 4),
                mtime(base.resolve("grown.bin")).plus(Duration.ofMinutes(5)));
        write(
                src.resolve("same-size-older.bin"),
                bytes(4096, 5),
                mtime(base.resolve("same-size-older.bin")).minus(Duration.ofDays(1)));
        write(
                src.resolve("same-size-newer.bin"),
                bytes(4096, 6),
                mtime(base.resolve("same-size-newer.bin")).plus(Duration.ofMinutes(5)));
        write(src.resolve("sub/new.txt"), "new\n".getBytes(StandardCharsets.US_ASCII), Instant.now());
        source.handOver(src);
        Map<String, String> changedDigest = TreeDigest.of(src);

        List<Set<String>> written = List.of(
                Set.of("sub/new.txt"),
                Set.of("sub/new.txt", "grown.bin"),
                Set.of("sub/new.txt", "grown.bin", "same-size-newer.bin"),
                Set.of("sub/new.txt", "grown.bin", "same-size-newer.bin", "same-size-older.bin"));
        for (int level : levels) {
            Path dst = destination.local(name + "-" + level);
            Map<String, String> stampsBefore = stamps(dst);
            JsonNode task = transfer(
                    source.spec(name + "-src"),
                    destination.spec(name + "-" + level),
                    "--sync-level",
                    SYNC_LEVELS[level]);
            String what = "level " + level + " (" + SYNC_LEVELS[level] + ")";
            Set<String> expected = written.get(level);
            assertThat(changedFiles(stampsBefore, stamps(dst)))
                    .as(what + ": files written")
                    .isEqualTo(new TreeSet<>(expected));
            assertThat(task.path("files").asLong()).as(what + ": files").isEqualTo(6);
            assertThat(task.path("files_transferred").asLong())
                    .as(what + ": files_transferred")
                    .isEqualTo(expected.size());
            assertThat(task.path("files_skipped").asLong())
                    .as(what + ": files_skipped")
                    .isEqualTo(6 - expected.size());
            Map<String, String> implied = new TreeMap<>(changedDigest);
            baseDigest.forEach((file, digest) -> {
                if (!expected.contains(file)) {
                    implied.put(file, digest);
                }
            });
            assertThat(TreeDigest.of(dst)).as(what + ": destination content").isEqualTo(implied);
        }
    }

    /**
     * A chunk of 150 small files (more than 100 averaging under 50 MB: concurrency 2,
     * pipelining 20) must be moved by two session pairs at once, each with its own globus session,
     * with globus as the source and as the destination.
     */
    @Test
    void smallFileChunkUsesSeveralSessionPairsAgainstGlobus() throws Exception {
        Side globusSide = globusSide();
        Side ferrySide = ferrySide();
        Path many = globusSide.local("many");
        SplittableRandom random = new SplittableRandom(150);
        Files.createDirectories(many);
        for (int i = 0; i < 150; i++) {
            byte[] data = new byte[1 + random.nextInt(8192)];
            random.nextBytes(data);
            Files.write(many.resolve(String.format("m%03d.bin", i)), data);
        }
        globusSide.handOver(many);
        Map<String, String> expected = TreeDigest.of(many);

        for (boolean globusIsSource : new boolean[] {true, false}) {
            String from = globusIsSource ? globusSide.spec("many") : ferrySide.spec("many");
            String to = globusIsSource ? ferrySide.spec("many") : globusSide.spec("many-back");
            Path arrived = globusIsSource ? ferrySide.local("many") : globusSide.local("many-back");
            JsonNode task;
            try (GlobusSessionSampler sessions = GlobusSessionSampler.start(globus)) {
                task = transfer(from, to);
                System.out.println("150 small files, globus as the " + (globusIsSource ? "source" : "destination")
                        + ": " + sessions);
                assertThat(sessions.mostAtOnceAfterFirst())
                        .as("globus sessions alive at once beside the planner's, globus as the "
                                + (globusIsSource ? "source" : "destination") + ": " + sessions)
                        .isGreaterThanOrEqualTo(2);
            }
            assertThat(TreeDigest.of(arrived)).isEqualTo(expected);
            assertCounters(task, many, expected);
        }
    }

    /**
     * {@code ferry transfer --preserve-mtime} with globus-gridftp-server as the destination (MFMT,
     * which it lists in FEAT and maps to its SITE UTIME) and then as the source (its MLSD Modify
     * facts): 150 small files in one directory (pipelined batches of STOR/RETR: globus has no tar
     * streams), a nested directory and a 20 MiB file moved alone, each with its own old time, end
     * with their sources' times to the second both ways; without the flag globus writes new times.
     */
    @Test
    void preservedModificationTimesReachGlobusAndComeBack() throws Exception {
        Side globusSide = globusSide();
        Side ferrySide = ferrySide();
        Path tree = ferrySide.local("timed");
        Instant oldest = Instant.parse("2005-06-07T08:09:10Z");
        SplittableRandom random = new SplittableRandom(1414);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            names.add(String.format("many/t%03d.bin", i));
        }
        names.addAll(List.of("nested/deeper/n1.txt", "nested/n2.txt", "big.bin"));
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            byte[] data = new byte[name.equals("big.bin") ? 20 << 20 : 1 + random.nextInt(6000)];
            random.nextBytes(data);
            write(tree.resolve(name), data, oldest.plus(Duration.ofDays(i)).plusSeconds(7L * i));
        }
        Map<String, Instant> sourceTimes = mtimes(tree);
        assertThat(sourceTimes).hasSize(153);
        Map<String, String> expected = TreeDigest.of(tree);

        Instant beforeWrites = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
        JsonNode toGlobus = transfer(ferrySide.spec("timed"), globusSide.spec("timed"), "--preserve-mtime");
        assertThat(toGlobus.path("preserve_timestamp").asBoolean()).isTrue();
        assertThat(TreeDigest.of(globusSide.local("timed"))).isEqualTo(expected);
        assertThat(mtimes(globusSide.local("timed"))).as("times on globus").isEqualTo(sourceTimes);

        transfer(globusSide.spec("timed"), ferrySide.spec("timed-back"), "--preserve-mtime");
        assertThat(TreeDigest.of(ferrySide.local("timed-back"))).isEqualTo(expected);
        assertThat(mtimes(ferrySide.local("timed-back")))
                .as("times back from globus")
                .isEqualTo(sourceTimes);

        transfer(ferrySide.spec("timed"), globusSide.spec("timed-plain"));
        mtimes(globusSide.local("timed-plain"))
                .forEach((file, time) ->
                        assertThat(time).as(file + " without --preserve-mtime").isAfterOrEqualTo(beforeWrites));
    }

    // ---- helpers ----    // ---- helpers ----

    /**
     * Submits a recursive transfer with the CLI and waits for it with {@code ferry wait}.
     *
     * @return the final task document, checked SUCCEEDED without faults
     */
    private JsonNode transfer(String source, String destination, String... options) throws Exception {
        // --no-verify-checksum: the test compares the bytes itself, as before ferry transfer verified by default
        List<String> args = new ArrayList<>(
                List.of("-F", "unix", "transfer", source, destination, "--recursive", "--no-verify-checksum"));
        args.addAll(List.of(options));
        String taskId =
                expectSuccess(cli.run(60, args.toArray(String[]::new))).stdout().trim();
        assertThat(taskId).matches(TASK_ID);
        CliRunner.Result waited =
                cli.run(240, "-F", "json", "wait", taskId, "--timeout", "180", "--polling-interval", "0.2");
        assertThat(waited.exitCode())
                .as("ferry wait " + taskId + ": " + waited.describe() + "\nevents:\n"
                        + cli.run(60, "events", taskId, "--errors").stdout() + "\nserver log:\n" + server.output())
                .isZero();
        JsonNode task = json.readTree(waited.stdout());
        assertThat(task.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.path("faults").asLong()).as("faults of " + taskId).isZero();
        return task;
    }

    /** Checks a whole-tree copy's counters against the tree on disk and its digest. */
    private static void assertCounters(JsonNode task, Path root, Map<String, String> tree) throws IOException {
        long files = tree.values().stream().filter(v -> !v.equals("dir")).count();
        long bytes;
        try (Stream<Path> all = Files.walk(root)) {
            bytes = all.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
        }
        assertThat(task.path("bytes_transferred").asLong())
                .as("bytes_transferred")
                .isEqualTo(bytes);
        assertThat(task.path("files").asLong()).as("files").isEqualTo(files);
        assertThat(task.path("files_transferred").asLong())
                .as("files_transferred")
                .isEqualTo(files);
        assertThat(task.path("files_skipped").asLong()).as("files_skipped").isZero();
        assertThat(task.path("directories").asLong()).as("directories").isEqualTo(tree.size() - files);
    }

    private static CliRunner.Result expectSuccess(CliRunner.Result result) {
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result;
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static void write(Path file, byte[] content, Instant modified) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        Files.setLastModifiedTime(file, FileTime.from(modified));
    }

    private static void append(Path file, byte[] content, Instant modified) throws IOException {
        Files.write(file, content, StandardOpenOption.APPEND);
        Files.setLastModifiedTime(file, FileTime.from(modified));
    }

    /** @return relative path to modification time of every regular file under {@code root} */
    private static Map<String, Instant> mtimes(Path root) throws IOException {
        Map<String, Instant> times = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p)) {
                    times.put(root.relativize(p).toString(), mtime(p));
                }
            }
        }
        return times;
    }

    private static Instant mtime(Path file) throws IOException {
        return Files.getLastModifiedTime(file).toInstant();
    }

    /** Copies a tree, keeping modification times (cp -a without owners). */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** @return regular file (relative path) to inode and ctime: both change when a server writes the file */
    private static Map<String, String> stamps(Path root) throws IOException {
        Map<String, String> stamps = new HashMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p)) {
                    stamps.put(
                            root.relativize(p).toString(),
                            Files.getAttribute(p, "unix:ino") + "/" + Files.getAttribute(p, "unix:ctime"));
                }
            }
        }
        return stamps;
    }

    private static Set<String> changedFiles(Map<String, String> before, Map<String, String> after) {
        Set<String> changed = new TreeSet<>();
        after.forEach((file, stamp) -> {
            if (!stamp.equals(before.get(file))) {
                changed.add(file);
            }
        });
        return changed;
    }
}
