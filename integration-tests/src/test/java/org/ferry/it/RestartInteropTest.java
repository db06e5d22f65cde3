package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * Restart after a transfer killed for real (GFD.020 "Restarting"; gridftp-protocol.md section 2.6:
 * 111 range markers from the receiver, {@code REST a-b,c-d} on resume), both ways across the Globus
 * tools, bytes compared by digest:
 *
 * <ul>
 *   <li>globus-url-copy {@code -rst} drives a MODE E {@code -p 4} transfer into ferry-gridftp, whose
 *       process is killed with SIGKILL after its first restart marker and started again on the same
 *       port; globus-url-copy reconnects and sends the ranges the dead server reported. The data come
 *       from globus-gridftp-server: globus-url-copy's restart plugin restarts third-party transfers,
 *       while a two-party upload from a local file is given up by its file reader at the first
 *       data-channel error (observed with GCT 6.2: "Connection reset by peer", no retry).</li>
 *   <li>The Ferry client drives a MODE E transfer from ferry-gridftp into globus-gridftp-server,
 *       whose session process is killed with SIGKILL after its first restart marker, and resumes
 *       it with {@link GridFtpSession#resumeSendTo} from the markers {@link RestartMarkers}
 *       collected; globus's own transfer log says how many bytes the resume moved.</li>
 * </ul>
 */
class RestartInteropTest {

    private static final long SIZE = 512L << 20;

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
        String digest = writeRandom(source, SIZE, 21);
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-r--r--"));
        globus = GlobusGridFtpServer.start();
        // 111 markers every 0.2 s: the kill lands after the first one, long before the end
        ferry = FerryGridFtpProcess.start(Launchers.fromBuild(), ferryRoot, work.resolve("ferry-1.log"), 0,
                "--marker-interval", "0.2");
        int port = ferry.port();
        String destination = ferry.url() + "/restart.bin";
        Path gucLog = work.resolve("guc.log");
        // -rst-interval 5: the restarted server's JVM must be listening when globus-url-copy reconnects
        Process guc = GlobusTools.startUrlCopy(gucLog, "-dbg", "-p", "4", "-rst", "-rst-retries", "3",
                "-rst-interval", "5", globus.base() + source, destination);
        try {
            awaitLog(gucLog, "111 Range Marker", guc);
            ferry.kill();
            int killedAt = Files.readString(gucLog, StandardCharsets.UTF_8).length();
            assertThat(guc.isAlive()).as("the transfer was still running when the server died").isTrue();
            ferry = FerryGridFtpProcess.start(Launchers.fromBuild(), ferryRoot, work.resolve("ferry-2.log"), port,
                    "--marker-interval", "0.2");
            assertThat(guc.waitFor(300, TimeUnit.SECONDS)).as("globus-url-copy finished").isTrue();
            String log = Files.readString(gucLog, StandardCharsets.UTF_8);
            assertThat(guc.exitValue()).as("globus-url-copy exit code; its output:%n%s", tail(log)).isZero();

            String resumed = log.substring(killedAt);
            Matcher rest = Pattern.compile("sending command to " + Pattern.quote(destination) + ":\\s*REST (\\S+)")
                    .matcher(resumed);
            assertThat(rest.find()).as("REST sent to the restarted ferry-gridftp:%n%s", tail(log)).isTrue();
            List<ByteRange> skipped = ByteRange.merge(ByteRange.parseList(rest.group(1)));
            long covered = skipped.stream().mapToLong(ByteRange::length).sum();
            assertThat(covered).as("bytes the killed server had reported written").isPositive().isLessThan(SIZE);
            // the restarted server's last performance marker: what this attempt received
            long moved = lastStripeBytes(resumed.substring(rest.end()));
            assertThat(moved).as("bytes moved by the resume").isEqualTo(SIZE - covered);
        } finally {
            guc.destroyForcibly();
        }
        assertThat(md5(ferryRoot.resolve("restart.bin"))).isEqualTo(digest);
    }

    @Test
    void theFerryClientResumesIntoGlobusFromTheMarkersOfTheKilledSession() throws Exception {
        Path transferLog = shared.resolve("transfer.log");
        globus = GlobusGridFtpServer.start(List.of("-Z", transferLog.toString()));
        ferry = FerryGridFtpProcess.start(Launchers.fromBuild(), ferryRoot, work.resolve("ferry.log"));
        Path target = shared.resolve("restart.bin");
        String destination = target.toString();
        TransferOptions options = TransferOptions.extendedBlock(4);
        // the first attempt must still run at globus's first marker (1 s at the shortest): a
        // machine that moves the file sooner gets a bigger one (1 GiB, then 4 GiB) under another
        // name, so that globus's log line for the finished small one is not taken for the resume's
        long size = 2 * SIZE;
        try (GridFtpClient client = new GridFtpClient()) {
            String digest = writeRandom(ferryRoot.resolve("src.bin"), size, 22);
            RestartMarkers markers = killedAttempt(client, options, destination, size);
            if (markers == null) {
                size *= 4;
                target = shared.resolve("restart-bigger.bin");
                destination = target.toString();
                digest = writeRandom(ferryRoot.resolve("src.bin"), size, 22);
                markers = killedAttempt(client, options, destination, size);
            }
            assertThat(markers).as("a transfer still running at globus's first restart marker").isNotNull();
            long committed = markers.bytesCommitted();
            assertThat(committed).as("bytes globus reported written before it died").isPositive().isLessThan(size);
            try (GridFtpSession f = client.open(GridFtpUrl.parse(ferry.url()));
                    GridFtpSession g = client.open(globus.url())) {
                f.resumeSendTo("/src.bin", g, destination, options, markers.ranges(), TransferListener.NONE);
            }
            assertThat(md5(target)).isEqualTo(digest);
            // globus logs one line per finished transfer (the killed one never finished), written
            // out when the session process ends after QUIT; a STOR after REST is logged as ESTO
            String logged = "FILE=" + target + " ";
            List<String> stors = List.of();
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    stors.isEmpty() && System.nanoTime() < deadline; Thread.sleep(100)) {
                stors = Files.readAllLines(transferLog).stream()
                        .filter(l -> l.contains(logged) && l.contains("CODE=226")).toList();
            }
            assertThat(stors).as("globus transfer log %s", Files.readString(transferLog)).hasSize(1);
            Matcher nbytes = Pattern.compile("NBYTES=(\\d+)").matcher(stors.get(0));
            assertThat(nbytes.find()).isTrue();
            assertThat(Long.parseLong(nbytes.group(1))).as("bytes the resume moved into globus")
                    .isEqualTo(size - committed);
        }
    }

    /**
     * One transfer whose globus session is killed at its first restart marker.
     *
     * @return the markers collected before the kill, or null if the transfer ended before one came
     */
    private RestartMarkers killedAttempt(GridFtpClient client, TransferOptions options, String destination,
            long size) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        RestartMarkers markers = new RestartMarkers(new TransferListener() {
            @Override
            public void onRestartMarker(String ranges) {
                // a first marker covering the whole file is the last one: the transfer has ended
                long covered = ByteRange.merge(ByteRange.parseList(ranges)).stream().mapToLong(ByteRange::length).sum();
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

    private static void awaitLog(Path log, String text, Process process) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String content = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            if (content.contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                throw new AssertionError("globus-url-copy ended before \"" + text + "\":\n" + tail(content));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no \"" + text + "\" within 120 s");
    }

    private static long lastStripeBytes(String log) {
        Matcher m = Pattern.compile("Stripe Bytes Transferred: (\\d+)").matcher(log);
        long last = -1;
        while (m.find()) {
            last = Math.max(last, Long.parseLong(m.group(1)));
        }
        assertThat(last).as("a performance marker after REST").isNotNegative();
        return last;
    }

    /** The log without MODE E buffer chatter, last lines, for failure messages. */
    private static String tail(String log) {
        List<String> lines = log.lines().filter(l -> !l.contains("buffer 0x") && !l.isBlank()).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
    }

    /** Writes {@code size} pseudo-random bytes; returns their MD5. */
    private static String writeRandom(Path file, long size, long seed) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        SplittableRandom random = new SplittableRandom(seed);
        byte[] chunk = new byte[1 << 20];
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
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
