package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.TerminalFailureException;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.RestartMarkers;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restart after a transfer killed for real (GFD.020 "Restarting":
 * 111 range markers from the receiver, {@code REST a-b,c-d} on resume), both ways across the Globus
 * tools, bytes compared by digest:
 *
 * <ul>
 *   <li>globus-url-copy {@code -rst} drives a MODE E {@code -p 4} transfer into ferry-gridftp, whose
 *       process is killed with SIGKILL after its first restart marker and started again on the same
 *       port; globus-url-copy reconnects and sends the ranges the dead server reported. Before the
 *       restart the test overwrites those ranges with zeros: afterwards they must still be zeros
 *       (the resume did not send them again) and every other byte must match the source. The data come
 *       from globus-gridftp-server: globus-url-copy's restart plugin restarts third-party transfers,
 *       while a two-party upload from a local file is given up by its file reader at the first
 *       data-channel error (observed with GCT 6.2: "Connection reset by peer", no retry).</li>
 *   <li>The Ferry client drives a MODE E transfer from ferry-gridftp into globus-gridftp-server,
 *       whose session process is killed with SIGKILL after its first restart marker, and resumes
 *       it with {@link GridFtpSession#resumeSendTo} from the markers {@link RestartMarkers}
 *       collected; globus's own transfer log says how many bytes the resume moved.</li>
 * </ul>
 *
 * <p>Neither depends on the machine's speed: the Ferry server on the data path runs with a
 * {@code --data-rate-limit}, so the transfer is still running when its first marker arrives, and
 * the evidence of what the resume sent (the stamped ranges, globus's {@code NBYTES}) exists however
 * quickly the resume ends.
 */
class RestartInteropTest {

    private static final long SIZE = 128L << 20;

    @TempDir
    Path work;

    private Path shared; // globus-gridftp-server's files: it runs sessions as gsuser
    private Path ferryRoot;
    private FerryGridFtpProcess ferry;
    private GlobusGridFtpServer globus;

    @BeforeEach
    void start() throws Exception {
        GlobusTools.assumeInstalled();
        shared = Files.createTempDirectory(Path.of("/tmp"), "ferry-restart");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        ferryRoot = Files.createDirectories(work.resolve("ferry-root"));
    }

    @AfterEach
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
        if (globus != null) {
            globus.close();
        }
        GlobusGridFtpServer.deleteTree(shared);
    }

    @Test
    void globusUrlCopyResumesIntoARestartedFerryGridFtpWithTheRangesTheKilledOneReported() throws Exception {
        Path source = shared.resolve("src.bin");
        writeRandom(source, SIZE, 21);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-r--r--"));
        globus = GlobusGridFtpServer.start();
        // The killed server receives at most 16 MiB/s, so the transfer takes 8 s at least and is
        // still running at its first 111 marker (every 0.2 s) however fast the machine is.
        ferry = FerryGridFtpProcess.start(
                Launchers.fromBuild(),
                ferryRoot,
                work.resolve("ferry-1.log"),
                0,
                "--marker-interval",
                "0.2",
                "--data-rate-limit",
                "16M");
        int port = ferry.port();
        String destination = ferry.url() + "/restart.bin";
        Path target = ferryRoot.resolve("restart.bin");
        Path gucLog = work.resolve("guc.log");
        List<ByteRange> stamped;
        // -rst-interval 5: the restarted server's JVM must be listening when globus-url-copy reconnects
        Process guc = GlobusTools.startUrlCopy(
                gucLog,
                "-dbg",
                "-p",
                "4",
                "-rst",
                "-rst-retries",
                "3",
                "-rst-interval",
                "5",
                globus.base() + source,
                destination);
        try {
            awaitLog(gucLog, "111 Range Marker", guc);
            ferry.kill();
            int killedAt = Files.readString(gucLog, StandardCharsets.UTF_8).length();
            assertThat(guc.isAlive())
                    .as("the transfer was still running when the server died")
                    .isTrue();

            // What the killed server reported written is on disk; stamp it with zeros, which the
            // random source never holds for a whole range: a resume that sends those bytes again
            // overwrites the stamp, one that skips them leaves it.
            stamped = reportedRanges(Files.readString(gucLog, StandardCharsets.UTF_8));
            assertThat(stamped).as("ranges in the killed server's 111 markers").isNotEmpty();
            for (ByteRange range : stamped) {
                assertThat(sameBytes(source, target, range))
                        .as("bytes of %s on disk", range)
                        .isTrue();
                zero(target, range);
            }

            ferry = FerryGridFtpProcess.start(Launchers.fromBuild(), ferryRoot, work.resolve("ferry-2.log"), port);
            assertThat(guc.waitFor(300, TimeUnit.SECONDS))
                    .as("globus-url-copy finished")
                    .isTrue();
            String log = Files.readString(gucLog, StandardCharsets.UTF_8);
            assertThat(guc.exitValue())
                    .as("globus-url-copy exit code; its output:%n%s", tail(log))
                    .isZero();

            Matcher rest = Pattern.compile("sending command to " + Pattern.quote(destination) + ":\\s*REST (\\S+)")
                    .matcher(log.substring(killedAt));
            assertThat(rest.find())
                    .as("REST sent to the restarted ferry-gridftp:%n%s", tail(log))
                    .isTrue();
            List<ByteRange> skipped = ByteRange.merge(ByteRange.parseList(rest.group(1)));
            long covered = skipped.stream().mapToLong(ByteRange::length).sum();
            assertThat(covered)
                    .as("bytes the resume was told to skip")
                    .isPositive()
                    .isLessThan(SIZE);
            for (ByteRange range : stamped) {
                assertThat(skipped.stream().anyMatch(r -> r.start() <= range.start() && range.end() <= r.end()))
                        .as("REST %s covers the reported %s", skipped, range)
                        .isTrue();
            }
        } finally {
            guc.destroyForcibly();
        }
        // every byte outside the stamped ranges came right; the stamped ones were not sent again
        for (ByteRange range : ByteRange.missing(stamped, SIZE)) {
            assertThat(sameBytes(source, target, range))
                    .as("bytes of %s after the resume", range)
                    .isTrue();
        }
        for (ByteRange range : stamped) {
            assertThat(isZero(target, range))
                    .as("the resume did not send %s again", range)
                    .isTrue();
        }
    }

    @Test
    void theFerryClientResumesIntoGlobusFromTheMarkersOfTheKilledSession() throws Exception {
        Path transferLog = shared.resolve("transfer.log");
        globus = GlobusGridFtpServer.start(List.of("-Z", transferLog.toString()));
        // Ferry's server sends at most 64 MiB/s: the 256 MiB transfer takes 4 s at least and is
        // still running at globus's first restart marker (1 s at the shortest) however fast the machine is
        ferry = FerryGridFtpProcess.start(
                Launchers.fromBuild(), ferryRoot, work.resolve("ferry.log"), 0, "--data-rate-limit", "64M");
        Path target = shared.resolve("restart.bin");
        String destination = target.toString();
        TransferOptions options = TransferOptions.extendedBlock(4);
        long size = 2 * SIZE;
        try (GridFtpClient client = new GridFtpClient()) {
            String digest = writeRandom(ferryRoot.resolve("src.bin"), size, 22);
            RestartMarkers markers = killedAttempt(client, options, destination, size);
            assertThat(markers)
                    .as("a transfer still running at globus's first restart marker")
                    .isNotNull();
            long committed = markers.bytesCommitted();
            assertThat(committed)
                    .as("bytes globus reported written before it died")
                    .isPositive()
                    .isLessThan(size);
            try (GridFtpSession f = client.open(GridFtpUrl.parse(ferry.url()));
                    GridFtpSession g = client.open(globus.url())) {
                f.resumeSendTo("/src.bin", g, destination, options, markers.ranges(), TransferListener.NONE);
            }
            assertThat(md5(target)).isEqualTo(digest);
            // globus logs one line per finished transfer (the killed one never finished), written
            // out when the session process ends after QUIT; a STOR after REST is logged as ESTO
            String logged = "FILE=" + target + " ";
            List<String> stors = Awaitility.await("globus's transfer log line of the resumed STOR")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> Files.readAllLines(transferLog).stream()
                                    .filter(l -> l.contains(logged) && l.contains("CODE=226"))
                                    .toList(),
                            lines -> !lines.isEmpty());
            assertThat(stors)
                    .as("globus transfer log %s", Files.readString(transferLog))
                    .hasSize(1);
            Matcher nbytes = Pattern.compile("NBYTES=(\\d+)").matcher(stors.get(0));
            assertThat(nbytes.find()).isTrue();
            assertThat(Long.parseLong(nbytes.group(1)))
                    .as("bytes the resume moved into globus")
                    .isEqualTo(size - committed);
        }
    }

    /**
     * One transfer whose globus session is killed at its first restart marker.
     *
     * @return the markers collected before the kill, or null if the transfer ended before one came
     */
    private RestartMarkers killedAttempt(GridFtpClient client, TransferOptions options, String destination, long size)
            throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        RestartMarkers markers = new RestartMarkers(new TransferListener() {
            @Override
            public void onRestartMarker(String ranges) {
                // a first marker covering the whole file is the last one: the transfer has ended
                long covered = ByteRange.merge(ByteRange.parseList(ranges)).stream()
                        .mapToLong(ByteRange::length)
                        .sum();
                if (covered < size && killed.compareAndSet(false, true)) {
                    assertThat(globus.killSessions()).isEqualTo(1); // the destination session, SIGKILL
                }
            }
        });
        try (GridFtpSession f = client.open(GridFtpUrl.parse(ferry.url()));
                GridFtpSession g = client.open(globus.url())) {
            g.restartMarkerInterval(1); // TREV RESTART 1: globus's default is 5 s
            try {
                f.sendTo("/src.bin", g, destination, options, markers);
            } catch (IOException expected) {
                assertThat(killed).as("failed without the kill: " + expected).isTrue();
            }
        } catch (IOException closingAfterTheKill) {
            // QUIT to the dead session
        }
        return killed.get() ? markers : null;
    }

    private static void awaitLog(Path log, String text, Process process) {
        Callable<String> content = () -> Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        try {
            Awaitility.await("\"" + text + "\" in " + log)
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(20))
                    .failFast(() -> !process.isAlive() && !content.call().contains(text))
                    .until(content, c -> c.contains(text));
        } catch (TerminalFailureException e) {
            String last;
            try {
                last = tail(content.call());
            } catch (Exception unreadable) {
                last = unreadable.toString();
            }
            throw new AssertionError("globus-url-copy ended before \"" + text + "\":\n" + last, e);
        }
    }

    /**
     * The union of the ranges in the 111 markers globus-url-copy logged, complete lines only (the
     * log may end in the middle of one).
     */
    private static List<ByteRange> reportedRanges(String log) {
        Matcher m = Pattern.compile("111 Range Marker ([0-9,-]+)\\r?\\n").matcher(log);
        List<ByteRange> ranges = new ArrayList<>();
        while (m.find()) {
            ranges.addAll(ByteRange.parseList(m.group(1)));
        }
        return ByteRange.merge(ranges);
    }

    private static boolean sameBytes(Path a, Path b, ByteRange range) throws IOException {
        try (FileChannel x = FileChannel.open(a);
                FileChannel y = FileChannel.open(b)) {
            ByteBuffer bx = ByteBuffer.allocate(1 << 20);
            ByteBuffer by = ByteBuffer.allocate(1 << 20);
            for (long at = range.start(); at < range.end(); at += bx.limit()) {
                int n = (int) Math.min(bx.capacity(), range.end() - at);
                bx.clear().limit(n);
                by.clear().limit(n);
                readFully(x, bx, at);
                readFully(y, by, at);
                if (!bx.flip().equals(by.flip())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isZero(Path file, ByteRange range) throws IOException {
        try (FileChannel in = FileChannel.open(file)) {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = range.start(); at < range.end(); at += buffer.limit()) {
                int n = (int) Math.min(buffer.capacity(), range.end() - at);
                buffer.clear().limit(n);
                readFully(in, buffer, at);
                if (!buffer.flip().equals(zeros.clear().limit(n))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void zero(Path file, ByteRange range) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = range.start(); at < range.end(); at += zeros.limit()) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), range.end() - at));
                while (zeros.hasRemaining()) {
                    out.write(zeros, at + zeros.position());
                }
            }
        }
    }

    private static void readFully(FileChannel in, ByteBuffer buffer, long at) throws IOException {
        while (buffer.hasRemaining()) {
            if (in.read(buffer, at + buffer.position()) < 0) {
                throw new IOException("file ends before " + (at + buffer.position()));
            }
        }
    }

    /** The log without MODE E buffer chatter, last lines, for failure messages. */
    private static String tail(String log) {
        List<String> lines = log.lines()
                .filter(l -> !l.contains("buffer 0x") && !l.isBlank())
                .toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }

    /** Writes {@code size} pseudo-random bytes; returns their MD5. */
    private static String writeRandom(Path file, long size, long seed) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        SplittableRandom random = new SplittableRandom(seed);
        byte[] chunk = new byte[1 << 20];
        try (FileChannel out = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long written = 0; written < size; written += chunk.length) {
                random.nextBytes(chunk);
                md5.update(chunk);
                out.write(ByteBuffer.wrap(chunk));
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static String md5(Path file) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        try (FileChannel in = FileChannel.open(file)) {
            while (in.read(buffer) > 0) {
                buffer.flip();
                md5.update(buffer);
                buffer.clear();
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }
}
