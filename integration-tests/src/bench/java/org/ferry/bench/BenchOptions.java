package org.ferry.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one benchmark run does, from the command line of {@link BenchMain}.
 *
 * @param only benchmark names to run (empty: all of {@link #ALL})
 * @param memoryBytes size of the memory-to-memory source file, held in RAM on tmpfs (4 GiB; 1 GiB with --quick)
 * @param diskFileBytes size of the disk-to-disk file and of the files-api file (4 GiB; 1 GiB with --quick)
 * @param smallFileCount number of small files (5,000; 500 with --quick)
 * @param smallFileBytes size of each small file (50 KiB)
 * @param sessionCount concurrent control sessions (2,000 in both forms: they are cheap)
 * @param dataDirectory disk scratch directory (readable by the globus anonymous user)
 * @param memoryDirectory tmpfs scratch directory for the memory-to-memory source
 * @param outputDirectory where results.csv and results.json go
 * @param repoRoot the repository root (finds the ferry-gridftp jar)
 * @param sshKey private key for rsync over ssh to root@127.0.0.1, or null to skip rsync
 * @param smallFileLanes Ferry's concurrency for small files (session pairs)
 * @param repeat runs per side in the memory, disk and small-file benchmarks, the best one reported
 * @param smallFilesDirectory where the small-file trees go (default DATA/small; e.g. a tmpfs to leave the disk out)
 * @param millionFiles files of the million-file task (1,000,000; 100,000 with --quick)
 * @param cases a regular expression: the crosshost, service and million benchmarks run only the
 *     cases (sections) whose names it finds (all when null), so that one direction, link or
 *     section can be measured in a run of minutes
 * @param sshftpFileBytes size of the sshftp benchmark's big file (512 MiB; 128 MiB with --quick)
 */
record BenchOptions(
        Set<String> only,
        long memoryBytes,
        long diskFileBytes,
        int smallFileCount,
        int smallFileBytes,
        int sessionCount,
        Path dataDirectory,
        Path memoryDirectory,
        Path outputDirectory,
        Path repoRoot,
        Path sshKey,
        int smallFileLanes,
        int repeat,
        Path smallFilesDirectory,
        int millionFiles,
        Pattern cases,
        long sshftpFileBytes) {

    /** Benchmark names, in run order. */
    static final List<String> ALL = List.of(
            "memory",
            "disk",
            "smallfiles",
            "fixedclient",
            "sshftp",
            "crosshost",
            "sessions",
            "secure",
            "service",
            "million",
            "files-api",
            "connect",
            "multicast",
            "manytasks",
            "verify");

    private static final long GIB = 1L << 30;

    /**
     * @param args {@code [--quick] [--only name[,name]] [--sessions N] [--lanes N] [--repeat N] [--data DIR]
     *     [--shm DIR] [--small-dir DIR] [--out DIR] [--repo DIR] [--ssh-key FILE] [--cases REGEX]}
     * @return the options
     * @throws IllegalArgumentException on an unknown option or benchmark name
     */
    static BenchOptions parse(String[] args) {
        boolean quick = false;
        Set<String> only = Set.of();
        int sessions = 2000;
        int lanes = 4;
        int repeat = 3;
        Path data = Path.of("/var/tmp/ferry-bench");
        Path shm = Path.of("/dev/shm/ferry-bench");
        Path out = Path.of("target/bench");
        Path repo = Path.of("..");
        Path sshKey = null;
        Path smallDir = null;
        Integer million = null;
        Pattern cases = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--only" -> only = Set.of(args[++i].split(","));
                case "--sessions" -> sessions = Integer.parseInt(args[++i]);
                case "--lanes" -> lanes = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--shm" -> shm = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--repo" -> repo = Path.of(args[++i]);
                case "--ssh-key" -> sshKey = Path.of(args[++i]);
                case "--small-dir" -> smallDir = Path.of(args[++i]);
                case "--million-files" -> million = Integer.parseInt(args[++i]);
                case "--cases" -> cases = Pattern.compile(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        for (String name : only) {
            if (!ALL.contains(name)) {
                throw new IllegalArgumentException("unknown benchmark " + name + "; known: " + ALL);
            }
        }
        return new BenchOptions(
                only,
                quick ? GIB : 4 * GIB,
                quick ? GIB : 4 * GIB,
                quick ? 500 : 5000,
                50 * 1024,
                sessions,
                data.toAbsolutePath(),
                shm.toAbsolutePath(),
                out.toAbsolutePath(),
                repo.toAbsolutePath().normalize(),
                sshKey,
                lanes,
                Math.max(1, repeat),
                (smallDir == null ? data.resolve("small") : smallDir).toAbsolutePath(),
                million != null ? million : quick ? 100_000 : 1_000_000,
                cases,
                quick ? 128L << 20 : 512L << 20);
    }

    /** @return true unless {@code --cases} was given and does not find its pattern in {@code name} */
    boolean runsCase(String name) {
        return cases == null || cases.matcher(name).find();
    }

    /** @return true if benchmark {@code name} is selected */
    boolean runs(String name) {
        return only.isEmpty() || only.contains(name);
    }
}
