package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Adler32;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.testing.GlobusUser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Ferry GridFTP client against real globus-gridftp-server processes (anonymous, clear-text
 * control channel, loopback): listing, stat, mkdir, checksums, 64 MiB downloads and uploads in
 * stream mode and MODE E with 4 streams, and third-party transfers between two servers.
 */
class GridFtpClientGlobusTest {

    private static final int BIG = 64 << 20;

    private static GlobusGridFtpServer serverA;
    private static GlobusGridFtpServer serverB;
    private static Path rootA;
    private static Path rootB;
    private static Path local;
    private static Path bigFile;
    private static GridFtpClient client;

    @BeforeAll
    static void start() throws Exception {
        GlobusUser.require("globus-gridftp-server", "globus-gridftp-server-progs");
        serverA = GlobusGridFtpServer.start();
        serverB = GlobusGridFtpServer.start();
        rootA = GlobusGridFtpServer.createRoot();
        rootB = GlobusGridFtpServer.createRoot();
        local = Files.createTempDirectory("ferry-client-local-");
        bigFile = local.resolve("big.bin");
        byte[] data = new byte[BIG];
        new Random(7).nextBytes(data);
        Files.write(bigFile, data);
        Files.copy(bigFile, rootA.resolve("big.bin"));
        Path listDir = Files.createDirectories(rootA.resolve("list dir"));
        Files.writeString(listDir.resolve("plain.txt"), "plain");
        Files.writeString(listDir.resolve("with space.txt"), "spaced out");
        Files.writeString(listDir.resolve("héllo wörld.txt"), "unicode");
        Files.writeString(listDir.resolve("日本語.dat"), "nihongo!");
        Files.createDirectories(listDir.resolve("sub dir"));
        Files.setPosixFilePermissions(listDir.resolve("plain.txt"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setLastModifiedTime(listDir.resolve("plain.txt"), FileTime.from(Instant.parse("2024-02-29T12:34:56Z")));
        GlobusGridFtpServer.chown(rootA);
        client = new GridFtpClient(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        for (GlobusGridFtpServer server : new GlobusGridFtpServer[] {serverA, serverB}) {
            if (server != null) {
                server.close();
            }
        }
        GlobusGridFtpServer.deleteTree(rootA);
        GlobusGridFtpServer.deleteTree(rootB);
        GlobusGridFtpServer.deleteTree(local);
    }

    @Test
    void listsNamesWithSpacesAndUtf8() throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            List<FileInfo> entries = session.list(rootA.resolve("list dir").toString());
            assertThat(entries)
                    .extracting(FileInfo::name)
                    .containsExactlyInAnyOrder("plain.txt", "with space.txt", "héllo wörld.txt", "日本語.dat", "sub dir");
            FileInfo plain = entries.stream()
                    .filter(e -> e.name().equals("plain.txt"))
                    .findFirst()
                    .orElseThrow();
            assertThat(plain.type()).isEqualTo(FileInfo.Type.FILE);
            assertThat(plain.sizeBytes()).isEqualTo(5);
            assertThat(plain.unixMode()).isEqualTo(0640);
            assertThat(plain.modified()).isEqualTo(Instant.parse("2024-02-29T12:34:56Z"));
            assertThat(entries.stream()
                            .filter(e -> e.name().equals("sub dir"))
                            .findFirst()
                            .orElseThrow()
                            .isDirectory())
                    .isTrue();
            assertThat(entries.stream()
                            .filter(e -> e.name().equals("日本語.dat"))
                            .findFirst()
                            .orElseThrow()
                            .sizeBytes())
                    .isEqualTo("nihongo!".getBytes(StandardCharsets.UTF_8).length);
            assertThatThrownBy(() -> session.list(rootA.resolve("missing").toString()))
                    .isInstanceOf(NoSuchFileException.class);
            // the session still works after a failed listing
            assertThat(session.list(rootA.resolve("list dir/sub dir").toString()))
                    .isEmpty();
        }
    }

    @Test
    void statsFilesAndDirectories() throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            String path = rootA.resolve("list dir/with space.txt").toString();
            FileInfo file = session.stat(path);
            assertThat(file.name()).isEqualTo(path);
            assertThat(file.type()).isEqualTo(FileInfo.Type.FILE);
            assertThat(file.sizeBytes()).isEqualTo(10);
            assertThat(file.modified())
                    .isEqualTo(Files.getLastModifiedTime(rootA.resolve("list dir/with space.txt"))
                            .toInstant()
                            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            assertThat(session.stat(rootA.toString()).isDirectory()).isTrue();
            assertThatThrownBy(() -> session.stat(rootA.resolve("nope").toString()))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    void makesAndDeletes() throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            String dir = rootA.resolve("made here").toString();
            session.makeDirectory(dir);
            assertThat(Files.isDirectory(rootA.resolve("made here"))).isTrue();
            assertThat(session.stat(dir).type()).isEqualTo(FileInfo.Type.DIRECTORY);
            assertThatThrownBy(() -> session.makeDirectory(dir))
                    .isInstanceOf(GridFtpReplyException.class)
                    .satisfies(e ->
                            assertThat(((GridFtpReplyException) e).replyCode()).isBetween(500, 599));
            Path victim = rootA.resolve("victim.txt");
            Files.writeString(victim, "bye");
            GlobusGridFtpServer.chown(victim);
            session.delete(victim.toString());
            assertThat(victim).doesNotExist();
        }
    }

    /**
     * globus-gridftp-server lists MFMT in FEAT and answers it {@code 250 OK.} (not the draft's 213):
     * one pipelined exchange sets each file's time to the second, and a missing path is refused on
     * its own.
     */
    @Test
    void setsModificationTimesInOneExchange() throws Exception {
        Path dir = Files.createDirectories(rootA.resolve("times"));
        List<String> paths = new java.util.ArrayList<>();
        List<Instant> times = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Path file = dir.resolve("t" + i + ".txt");
            Files.writeString(file, "t" + i);
            paths.add(file.toString());
            times.add(Instant.parse("1999-12-31T23:59:59Z").plus(Duration.ofDays(400L * i)));
        }
        GlobusGridFtpServer.chown(dir);
        paths.add(dir.resolve("missing.txt").toString());
        times.add(Instant.parse("2010-01-01T00:00:00Z"));
        try (GridFtpSession session = client.open(serverA.url())) {
            GridFtpReplyException[] refusals = session.setModifiedTimes(paths, times);
            for (int i = 0; i < 5; i++) {
                assertThat(refusals[i]).as(paths.get(i)).isNull();
                assertThat(session.stat(paths.get(i)).modified()).isEqualTo(times.get(i));
                assertThat(Files.getLastModifiedTime(Path.of(paths.get(i))).toInstant())
                        .isEqualTo(times.get(i));
            }
            assertThat(refusals[5]).isNotNull();
            assertThat(refusals[5].replyCode()).isEqualTo(550);
            assertThat(refusals[5].command()).startsWith("MFMT 20100101000000 ");
        }
    }

    @Test
    void checksumsMatchJava() throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            String path = rootA.resolve("big.bin").toString();
            byte[] bytes = Files.readAllBytes(bigFile);
            String md5 =
                    HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
            assertThat(session.checksum("MD5", path)).isEqualTo(md5);
            Adler32 adler = new Adler32();
            adler.update(bytes);
            assertThat(session.checksum("adler32", path)).isEqualTo(String.format("%08x", adler.getValue()));
            String sha256 = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            assertThat(session.checksum("SHA256", path)).isEqualTo(sha256);
        }
    }

    @Test
    void downloadsAndUploadsInStreamMode() throws Exception {
        roundTrip(TransferOptions.STREAM, "stream");
    }

    @Test
    void downloadsAndUploadsInModeEWithFourStreams() throws Exception {
        roundTrip(TransferOptions.extendedBlock(4), "modee");
    }

    private void roundTrip(TransferOptions options, String tag) throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            Path downloaded = local.resolve("down-" + tag + ".bin");
            AtomicLong progress = new AtomicLong();
            long start = System.nanoTime();
            long got = session.download(rootA.resolve("big.bin").toString(), downloaded, options, progressTo(progress));
            report("download " + tag, start);
            assertThat(got).isEqualTo(BIG);
            assertThat(progress.get()).isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, downloaded)).isEqualTo(-1);

            String remote = rootA.resolve("up-" + tag + ".bin").toString();
            start = System.nanoTime();
            long sent = session.upload(bigFile, remote, options, TransferListener.NONE);
            report("upload " + tag, start);
            assertThat(sent).isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, Path.of(remote))).isEqualTo(-1);
            // the same session again (MODE/OPTS not resent) still works
            long again = session.download(remote, downloaded, options, TransferListener.NONE);
            assertThat(again).isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, downloaded)).isEqualTo(-1);
            assertThatThrownBy(() -> session.download(
                            rootA.resolve("absent.bin").toString(), downloaded, options, TransferListener.NONE))
                    .isInstanceOf(GridFtpReplyException.class);
        }
    }

    @Test
    void oneSessionSwitchesModesAndParallelism() throws Exception {
        try (GridFtpSession session = client.open(serverA.url())) {
            String remote = rootA.resolve("big.bin").toString();
            Path downloaded = local.resolve("mixed.bin");
            assertThat(session.download(remote, downloaded, TransferOptions.extendedBlock(2), TransferListener.NONE))
                    .isEqualTo(BIG);
            assertThat(session.list(rootA.toString()))
                    .extracting(FileInfo::name)
                    .contains("big.bin");
            assertThat(session.download(remote, downloaded, TransferOptions.extendedBlock(3), TransferListener.NONE))
                    .isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, downloaded)).isEqualTo(-1);
            assertThat(session.download(remote, downloaded, TransferOptions.STREAM, TransferListener.NONE))
                    .isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, downloaded)).isEqualTo(-1);
            String up = rootA.resolve("mixed-up.bin").toString();
            assertThat(session.upload(bigFile, up, TransferOptions.extendedBlock(1), TransferListener.NONE))
                    .isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, Path.of(up))).isEqualTo(-1);
        }
    }

    @Test
    void thirdPartyInStreamMode() throws Exception {
        thirdParty(TransferOptions.STREAM, "stream");
    }

    @Test
    void thirdPartyInModeEWithFourStreams() throws Exception {
        thirdParty(TransferOptions.extendedBlock(4), "modee");
    }

    private void thirdParty(TransferOptions options, String tag) throws Exception {
        try (GridFtpSession source = client.open(serverA.url());
                GridFtpSession dest = client.open(serverB.url())) {
            Path target = rootB.resolve("3rd-" + tag + ".bin");
            long start = System.nanoTime();
            long moved = source.sendTo(
                    rootA.resolve("big.bin").toString(), dest, target.toString(), options, TransferListener.NONE);
            report("third-party " + tag, start);
            assertThat(moved).isEqualTo(BIG);
            assertThat(Files.mismatch(bigFile, target)).isEqualTo(-1);
            assertThatThrownBy(() -> source.sendTo(
                            rootA.resolve("absent").toString(),
                            dest,
                            target.toString(),
                            options,
                            TransferListener.NONE))
                    .isInstanceOf(NoSuchFileException.class);
            assertThat(dest.stat(target.toString()).sizeBytes()).isEqualTo(BIG);
            // a destination failure (no such directory) fails the transfer with the destination's reply
            assertThatThrownBy(() -> source.sendTo(
                            rootA.resolve("big.bin").toString(),
                            dest,
                            rootB.resolve("no such dir/x.bin").toString(),
                            options,
                            TransferListener.NONE))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageStartingWith("STOR ");
            // the destination session stays usable; globus closes the source's control connection on ABOR
            assertThat(dest.stat(target.toString()).sizeBytes()).isEqualTo(BIG);
        }
        try (GridFtpSession again = client.open(serverA.url())) {
            assertThat(again.stat(rootA.resolve("big.bin").toString()).sizeBytes())
                    .isEqualTo(BIG);
        }
    }

    private static TransferListener progressTo(AtomicLong progress) {
        return new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                progress.accumulateAndGet(bytesTransferred, Math::max);
            }
        };
    }

    private static void report(String what, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf("%s: 64 MiB in %.2f s = %.0f MiB/s%n", what, seconds, 64 / seconds);
    }
}
