package org.ferry.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The JDK's {@code Files} API over GridFTP (issue 32, the java.nio provider of mover-netty) beside
 * the nearest command-line way to do the same with the Globus tools, against globus-gridftp-server
 * and against ferry-gridftp (the server held fixed in each row; the same files for both sides):
 *
 * <ul>
 *   <li>a sequential read of one file (4 GiB; 1 GiB with {@code --quick}) through
 *       {@code Files.newInputStream} into a 1 MiB buffer, beside {@code globus-url-copy -p 4 URL
 *       file:///dev/null} (target: at least 0.9 of it); best of {@code --repeat} rounds, the order
 *       turned every round, and the first round reported on its own too;
 *   <li>1,000 reads of 1 MiB at random offsets (the same offsets for both) on one
 *       {@code SeekableByteChannel}, beside one {@code globus-url-copy -off X -len 1048576 URL
 *       file:///dev/null} per read;
 *   <li>{@code Files.walk} of a tree of 5,000 entries (50 directories of 99 empty files) beside
 *       {@code globus-url-copy -r -list URL}, best of {@code --repeat}.
 * </ul>
 *
 * <p>The big file is pseudo-random bytes on tmpfs, every page written (made once and kept, as the
 * memory benchmark's source): read from RAM, no disk; the tree is on tmpfs too. The file system is made once
 * per server with its defaults and {@code parallelism} 4; globus-url-copy runs start a process and
 * log in each time, so its random reads pay that per read: that is what the command line costs.
 */
final class FilesApiBench {

    private static final long MIB = 1L << 20;
    private static final long WARMUP_BYTES = 512 * MIB;
    private static final int DIRECTORIES = 50;
    private static final int FILES_PER_DIRECTORY = 99;

    private final BenchOptions options;
    private final ResultTable table;

    FilesApiBench(BenchOptions options, ResultTable table) {
        this.options = options;
        this.table = table;
    }

    /** Runs the benchmark and adds its rows. */
    void run() throws Exception {
        long size = options.diskFileBytes();
        int randomReads = options.diskFileBytes() < (4L << 30) ? 200 : 1000;
        Path dir = options.memoryDirectory().resolve("files-api");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(options.memoryDirectory(), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        // pseudo-random bytes, every page written: a sparse file would send the kernel's one zero
        // page over and over (how the memory benchmark once beat iperf3), not what a reader meets
        Path big = dir.resolve("big");
        Scratch.file(big, size, 32);
        Path tree = tree(dir.resolve("tree"));
        long[] offsets =
                new SplittableRandom(32).longs(randomReads, 0, size - MIB).toArray();
        Path logs = options.outputDirectory().resolve("logs");
        Files.createDirectories(logs);
        try (GlobusServer globus = GlobusServer.start(logs.resolve("globus-files-api.pid"));
                FerryServer ferry = FerryServer.start(options.repoRoot(), dir, logs.resolve("ferry-files-api.log"))) {
            // globus serves the whole file system (absolute paths), ferry-gridftp the directory
            measure("globus-gridftp-server", globus.url(), big.toString(), tree.toString(), size, offsets);
            measure("ferry-gridftp", ferry.url(), "/big", "/tree", size, offsets);
        } finally {
            Files.deleteIfExists(big);
            deleteTree(tree);
        }
    }

    private void measure(String server, String url, String bigPath, String treePath, long size, long[] offsets)
            throws Exception {
        try (FileSystem fileSystem = FileSystems.newFileSystem(URI.create(url + "/"), Map.of("parallelism", 4))) {
            Path big = fileSystem.getPath(bigPath);
            // the first round after the start, then JIT warm-up, then best of N with the order turned
            double firstFiles = sequential(big, size);
            double firstGlobus = globusSequential(url + bigPath, size);
            readSome(big, WARMUP_BYTES);
            double bestFiles = firstFiles;
            double bestGlobus = firstGlobus;
            for (int round = 0; round < options.repeat(); round++) {
                if (round % 2 == 0) {
                    bestGlobus = Math.max(bestGlobus, globusSequential(url + bigPath, size));
                    bestFiles = Math.max(bestFiles, sequential(big, size));
                } else {
                    bestFiles = Math.max(bestFiles, sequential(big, size));
                    bestGlobus = Math.max(bestGlobus, globusSequential(url + bigPath, size));
                }
            }
            String sizeText = Rates.size(size);
            table.add(new Result(
                    "files-api",
                    server + ": sequential read of " + sizeText + ", Files.newInputStream, best of "
                            + (options.repeat() + 1),
                    "Gbit/s",
                    bestFiles,
                    "globus-url-copy -p 4 to /dev/null",
                    bestGlobus,
                    0.9,
                    false));
            table.add(new Result(
                    "files-api",
                    server + ": the same, first round after the start (cold JIT)",
                    "Gbit/s",
                    firstFiles,
                    "globus-url-copy -p 4 to /dev/null",
                    firstGlobus,
                    Double.NaN,
                    false));
            table.add(new Result(
                    "files-api",
                    server + ": " + offsets.length + " reads of 1 MiB at random offsets, one SeekableByteChannel",
                    "reads/s",
                    randomReads(big, offsets),
                    "globus-url-copy -off X -len 1048576, one run per read",
                    globusRandomReads(url + bigPath, offsets),
                    Double.NaN,
                    false));
            int entries = DIRECTORIES * (FILES_PER_DIRECTORY + 1);
            walk(fileSystem.getPath(treePath), entries); // JIT warm-up of the listing path, not reported
            double bestWalk = 0;
            double bestList = 0;
            for (int round = 0; round < options.repeat(); round++) {
                bestWalk = Math.max(bestWalk, walk(fileSystem.getPath(treePath), entries));
                bestList = Math.max(bestList, globusList(url + treePath + "/", entries));
            }
            table.add(new Result(
                    "files-api",
                    server + ": Files.walk of " + entries + " entries (" + DIRECTORIES + " directories), best of "
                            + options.repeat(),
                    "entries/s",
                    bestWalk,
                    "globus-url-copy -r -list",
                    bestList,
                    Double.NaN,
                    false));
        }
    }

    /** @return Gbit/s of one read of the whole file through an input stream */
    private static double sequential(Path file, long size) throws IOException {
        long start = System.nanoTime();
        long bytes = readSome(file, Long.MAX_VALUE);
        long elapsed = System.nanoTime() - start;
        if (bytes != size) {
            throw new IllegalStateException("read " + bytes + " of " + size + " bytes of " + file);
        }
        return Rates.gigabitsPerSecond(bytes, elapsed);
    }

    private static long readSome(Path file, long limit) throws IOException {
        byte[] buffer = new byte[(int) MIB];
        long bytes = 0;
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while (bytes < limit && (n = in.read(buffer)) > 0) {
                bytes += n;
            }
        }
        return bytes;
    }

    private static double globusSequential(String url, long size) throws IOException, InterruptedException {
        Command.Outcome outcome = Command.check(List.of("globus-url-copy", "-p", "4", url, "file:///dev/null"), 1800);
        return Rates.gigabitsPerSecond(size, outcome.elapsedNanos());
    }

    /** @return reads per second, each read a whole MiB at its offset */
    private static double randomReads(Path file, long[] offsets) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) MIB);
        long start = System.nanoTime();
        try (SeekableByteChannel channel = Files.newByteChannel(file)) {
            for (long offset : offsets) {
                buffer.clear();
                channel.position(offset);
                while (buffer.hasRemaining()) {
                    if (channel.read(buffer) < 0) {
                        throw new IllegalStateException("end of file at " + channel.position());
                    }
                }
            }
        }
        return Rates.perSecond(offsets.length, System.nanoTime() - start);
    }

    private static double globusRandomReads(String url, long[] offsets) throws IOException, InterruptedException {
        long start = System.nanoTime();
        for (long offset : offsets) {
            Command.check(
                    List.of(
                            "globus-url-copy",
                            "-off",
                            Long.toString(offset),
                            "-len",
                            Long.toString(MIB),
                            url,
                            "file:///dev/null"),
                    120);
        }
        return Rates.perSecond(offsets.length, System.nanoTime() - start);
    }

    /** @return entries per second of one {@code Files.walk}, checked to see every entry */
    private static double walk(Path root, int entries) throws IOException {
        long start = System.nanoTime();
        long seen;
        try (Stream<Path> walk = Files.walk(root)) {
            seen = walk.count() - 1; // the root itself
        }
        long elapsed = System.nanoTime() - start;
        if (seen != entries) {
            throw new IllegalStateException("Files.walk saw " + seen + " of " + entries + " entries");
        }
        return Rates.perSecond(entries, elapsed);
    }

    /** @return entries per second of one {@code globus-url-copy -r -list}, checked to list every entry */
    private static double globusList(String url, int entries) throws IOException, InterruptedException {
        Command.Outcome outcome = Command.check(List.of("globus-url-copy", "-r", "-list", url), 600);
        // one line per entry, indented, under one URL line per directory
        long listed = Arrays.stream(outcome.output().split("\n"))
                .filter(line -> line.startsWith("    ") && !line.isBlank())
                .count();
        if (listed != entries) {
            throw new IllegalStateException("globus-url-copy -r -list listed " + listed + " of " + entries
                    + " entries:\n" + outcome.output().lines().limit(20).toList());
        }
        return Rates.perSecond(entries, outcome.elapsedNanos());
    }

    private static Path tree(Path root) throws IOException {
        deleteTree(root);
        Files.createDirectories(root);
        for (int d = 0; d < DIRECTORIES; d++) {
            Path directory = Files.createDirectory(root.resolve(String.format("d%02d", d)));
            for (int f = 0; f < FILES_PER_DIRECTORY; f++) {
                Files.createFile(directory.resolve(String.format("f%03d.h5", f)));
            }
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setPosixFilePermissions(
                        p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return root;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.deleteIfExists(all.get(i));
        }
    }
}
