package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The interop matrix of issue 3 (GFD.020; globus-url-copy's command order, GFD.020): globus-url-copy against
 * ferry-gridftp, and the Ferry client against globus-gridftp-server, cell by cell: stream mode,
 * MODE E with 1/4/8 streams, pipelining, concurrency, recursive trees, sync levels, partial
 * transfers, restart, checksums, and third-party transfers between the two servers driven by
 * either client. Every cell compares bytes. Files are small (8-16 MiB) to keep the matrix short.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InteropMatrixTest {

    private static final int FILE_BYTES = 8 << 20;

    private Path work;
    private Path ferryRoot;
    private Path shared; // globus-gridftp-server's files: world-readable and -writable (it runs as gsuser)
    private Path tree;
    private Path original;
    private byte[] data;
    private FerryGridFtpProcess ferry;
    private GlobusGridFtpServer globus;
    private GridFtpClient client;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        GlobusTools.assumeInstalled();
        ferryRoot = Files.createDirectories(work.resolve("ferry-root"));
        data = new byte[FILE_BYTES];
        new SplittableRandom(3).nextBytes(data);
        original = Files.write(work.resolve("original.bin"), data);
        Files.write(ferryRoot.resolve("src.bin"), data);
        tree = work.resolve("tree");
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 14; i++) {
            Path dir = Files.createDirectories(tree.resolve("d" + (i % 3)).resolve("e" + (i % 2)));
            byte[] bytes = new byte[i == 0 ? 0 : random.nextInt(600_000)];
            random.nextBytes(bytes);
            Files.write(dir.resolve("f" + i + ".bin"), bytes);
        }
        byte[] big = new byte[16 << 20];
        random.nextBytes(big);
        Files.write(tree.resolve("big.bin"), big);
        shared = Files.createTempDirectory(Path.of("/tmp"), "ferry-matrix");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path served = Files.write(shared.resolve("src.bin"), data);
        Files.setPosixFilePermissions(served, PosixFilePermissions.fromString("rw-r--r--"));
        ferry = FerryGridFtpProcess.start(
                Launchers.fromBuild(), ferryRoot, work.resolve("ferry-gridftp.log"), 0, "--inflight-checksums", "MD5");
        globus = GlobusGridFtpServer.start();
        client = new GridFtpClient();
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (ferry != null) {
            ferry.close();
        }
        if (globus != null) {
            globus.close();
        }
        if (shared != null) {
            try (Stream<Path> all = Files.walk(shared)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private GridFtpSession openFerry() throws IOException {
        return client.open(GridFtpUrl.parse(ferry.url()));
    }

    private GridFtpSession openGlobus() throws IOException {
        return client.open(globus.url());
    }

    private static TransferOptions options(int parallelism) {
        return parallelism == 0 ? TransferOptions.STREAM : TransferOptions.extendedBlock(parallelism);
    }

    private static String[] args(int parallelism, String... rest) {
        List<String> all = new ArrayList<>();
        if (parallelism > 0) {
            all.addAll(List.of("-p", Integer.toString(parallelism)));
        }
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    /** A world-writable directory under the globus server's area, for uploads to it. */
    private Path sharedDir(String name) throws IOException {
        Path dir = Files.createDirectories(shared.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    // ---- globus-url-copy -> ferry-gridftp ----

    @ParameterizedTest(name = "guc <-> ferry, p={0} (0 = stream)")
    @ValueSource(ints = {0, 1, 4, 8})
    void gucUploadsAndDownloads(int p) throws Exception {
        GlobusTools.urlCopy(120, args(p, "file://" + original, ferry.url() + "/up-" + p + ".bin"));
        assertThat(ferryRoot.resolve("up-" + p + ".bin")).hasSameBinaryContentAs(original);
        Path back = work.resolve("down-" + p + ".bin");
        GlobusTools.urlCopy(120, args(p, ferry.url() + "/up-" + p + ".bin", "file://" + back));
        assertThat(back).hasSameBinaryContentAs(original);
    }

    @ParameterizedTest(name = "guc -r -cd tree <-> ferry: {0}")
    @ValueSource(strings = {"-pp -p 4", "-pp -p 1", "-cc 4 -p 2", "-cc 2 -pp"})
    void gucTrees(String flags) throws Exception {
        String name = "tree" + flags.replaceAll("[^0-9a-z]", "");
        List<String> up = new ArrayList<>(List.of(flags.split(" ")));
        up.addAll(List.of("-r", "-cd", "file://" + tree + "/", ferry.url() + "/" + name + "/"));
        GlobusTools.urlCopy(180, up.toArray(String[]::new));
        assertThat(TreeDigest.of(ferryRoot.resolve(name))).isEqualTo(TreeDigest.of(tree));
        Path back = work.resolve(name + "-back");
        List<String> down = new ArrayList<>(List.of(flags.split(" ")));
        down.addAll(List.of("-r", "-cd", ferry.url() + "/" + name + "/", "file://" + back + "/"));
        GlobusTools.urlCopy(180, down.toArray(String[]::new));
        assertThat(TreeDigest.of(back)).isEqualTo(TreeDigest.of(tree));
    }

    @ParameterizedTest(name = "guc -sync -sync-level {0} to ferry")
    @ValueSource(ints = {0, 1, 2, 3})
    void gucSyncLevels(int level) throws Exception {
        Instant old = Instant.parse("2020-01-01T00:00:00Z");
        Instant recent = Instant.parse("2024-01-01T00:00:00Z");
        Path src = Files.createDirectories(work.resolve("sync-src-" + level));
        Path dst = Files.createDirectories(ferryRoot.resolve("sync-" + level));
        byte[] a = bytes(1000, 1);
        byte[] b = bytes(1000, 2);
        write(src.resolve("missing.bin"), a, recent);
        write(src.resolve("size-differs.bin"), a, recent);
        write(dst.resolve("size-differs.bin"), bytes(10, 3), recent);
        write(src.resolve("same-size-dest-older.bin"), a, recent);
        write(dst.resolve("same-size-dest-older.bin"), b, old);
        write(src.resolve("same-size-dest-newer.bin"), a, old);
        write(dst.resolve("same-size-dest-newer.bin"), b, recent);
        GlobusTools.urlCopy(
                120,
                "-sync",
                "-sync-level",
                Integer.toString(level),
                "-r",
                "file://" + src + "/",
                ferry.url() + "/sync-" + level + "/");
        assertThat(dst.resolve("missing.bin")).hasBinaryContent(a);
        // level 0: exists -> skip; 1: equal size -> skip; 2: equal size and dest not older -> skip;
        // 3: equal size and equal checksum -> skip (section 3.6)
        assertThat(Files.readAllBytes(dst.resolve("size-differs.bin"))).isEqualTo(level >= 1 ? a : bytes(10, 3));
        assertThat(Files.readAllBytes(dst.resolve("same-size-dest-older.bin"))).isEqualTo(level >= 2 ? a : b);
        assertThat(Files.readAllBytes(dst.resolve("same-size-dest-newer.bin"))).isEqualTo(level >= 3 ? a : b);
    }

    /**
     * In stream mode ferry-gridftp computes MD5 while the file arrives and answers -verify-checksum's
     * CKSM from it; once the file changed (in place, same size, mtime put back) CKSM reads it again:
     * a stale answer would make -sync-level 3 skip the file.
     */
    @Test
    void gucVerifyChecksumInStreamModeThenSyncLevel3SeesTheFileChangedSince() throws Exception {
        Path src = Files.createDirectories(work.resolve("inflight-src"));
        Path dst = ferryRoot.resolve("inflight");
        byte[] a = bytes(3_000_000, 7);
        write(src.resolve("f.bin"), a, Instant.parse("2024-01-01T00:00:00Z"));
        GlobusTools.urlCopy(120, "-verify-checksum", "-r", "-cd", "file://" + src + "/", ferry.url() + "/inflight/");
        assertThat(dst.resolve("f.bin")).hasBinaryContent(a);
        byte[] changed = a.clone();
        changed[12_345] ^= 1;
        java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(dst.resolve("f.bin"));
        Files.write(dst.resolve("f.bin"), changed);
        Files.setLastModifiedTime(dst.resolve("f.bin"), mtime);
        GlobusTools.urlCopy(120, "-sync", "-sync-level", "3", "-r", "file://" + src + "/", ferry.url() + "/inflight/");
        assertThat(dst.resolve("f.bin")).hasBinaryContent(a);
    }

    @ParameterizedTest(name = "guc -off/-len from ferry, p={0}")
    @ValueSource(ints = {0, 4})
    void gucPartial(int p) throws Exception {
        Path part = work.resolve("partial-" + p + ".bin");
        GlobusTools.urlCopy(
                120, args(p, "-off", "1000000", "-len", "3000000", ferry.url() + "/src.bin", "file://" + part));
        byte[] got = Files.readAllBytes(part);
        assertThat(got).hasSize(4_000_000);
        assertThat(Arrays.copyOfRange(got, 1_000_000, 4_000_000))
                .isEqualTo(Arrays.copyOfRange(data, 1_000_000, 4_000_000));
    }

    // globus-url-copy computes a local file's checksum itself, with OpenSSL digests only: ADLER32
    // ("Unable to use checksum algorithm") is covered server-to-server in gucThirdPartyVerifyChecksum
    @ParameterizedTest(name = "guc -verify-checksum -algo {0} <-> ferry")
    @ValueSource(strings = {"MD5", "SHA1", "SHA256"})
    void gucVerifyChecksum(String algorithm) throws Exception {
        GlobusTools.urlCopy(
                120,
                "-p",
                "2",
                "-verify-checksum",
                "-algo",
                algorithm,
                "file://" + original,
                ferry.url() + "/vc-" + algorithm + ".bin");
        assertThat(ferryRoot.resolve("vc-" + algorithm + ".bin")).hasSameBinaryContentAs(original);
        Path back = work.resolve("vc-" + algorithm + ".bin");
        GlobusTools.urlCopy(
                120,
                "-verify-checksum",
                "-algo",
                algorithm,
                ferry.url() + "/vc-" + algorithm + ".bin",
                "file://" + back);
        assertThat(back).hasSameBinaryContentAs(original);
    }

    @ParameterizedTest(name = "guc third-party -verify-checksum -algo {0} globus <-> ferry")
    @ValueSource(strings = {"ADLER32", "MD5", "SHA512"})
    void gucThirdPartyVerifyChecksum(String algorithm) throws Exception {
        GlobusTools.urlCopy(
                120,
                "-p",
                "2",
                "-verify-checksum",
                "-algo",
                algorithm,
                globus.base() + shared.resolve("src.bin"),
                ferry.url() + "/tpvc-" + algorithm + ".bin");
        assertThat(ferryRoot.resolve("tpvc-" + algorithm + ".bin")).hasSameBinaryContentAs(original);
        Path dir = sharedDir("tpvc-" + algorithm);
        GlobusTools.urlCopy(
                120,
                "-verify-checksum",
                "-algo",
                algorithm,
                ferry.url() + "/src.bin",
                globus.base() + dir.resolve("f2g.bin"));
        assertThat(dir.resolve("f2g.bin")).hasSameBinaryContentAs(original);
    }

    @ParameterizedTest(name = "guc third-party globus <-> ferry, p={0}")
    @ValueSource(ints = {0, 4})
    void gucThirdParty(int p) throws Exception {
        GlobusTools.urlCopy(
                120, args(p, globus.base() + shared.resolve("src.bin"), ferry.url() + "/tp-g2f-" + p + ".bin"));
        assertThat(ferryRoot.resolve("tp-g2f-" + p + ".bin")).hasSameBinaryContentAs(original);
        Path dir = sharedDir("guc-tp-" + p);
        GlobusTools.urlCopy(120, args(p, ferry.url() + "/src.bin", globus.base() + dir.resolve("tp-f2g.bin")));
        assertThat(dir.resolve("tp-f2g.bin")).hasSameBinaryContentAs(original);
    }

    // ---- Ferry client -> globus-gridftp-server ----

    @ParameterizedTest(name = "Ferry client <-> globus, p={0} (0 = stream)")
    @ValueSource(ints = {0, 1, 4, 8})
    void clientUploadsAndDownloads(int p) throws Exception {
        Path dir = sharedDir("client-" + p);
        Path back = work.resolve("from-globus-" + p + ".bin");
        try (GridFtpSession session = openGlobus()) {
            session.upload(original, dir.resolve("up.bin").toString(), options(p), TransferListener.NONE);
            session.download(dir.resolve("up.bin").toString(), back, options(p), TransferListener.NONE);
            // a second pair on the same session: MODE E reuses globus's cached connections
            session.download(shared.resolve("src.bin").toString(), back, options(p), TransferListener.NONE);
        }
        assertThat(dir.resolve("up.bin")).hasSameBinaryContentAs(original);
        assertThat(back).hasSameBinaryContentAs(original);
    }

    @Test
    void clientPipelinedBatchesWithGlobus() throws Exception {
        Path dir = sharedDir("batch");
        List<FilePair> up = new ArrayList<>();
        List<FilePair> down = new ArrayList<>();
        List<Path> locals = new ArrayList<>();
        try (Stream<Path> files = Files.walk(tree)) {
            files.filter(Files::isRegularFile).forEach(locals::add);
        }
        for (int i = 0; i < locals.size(); i++) {
            up.add(new FilePair(locals.get(i).toString(), dir.resolve("b" + i).toString()));
            down.add(new FilePair(
                    dir.resolve("b" + i).toString(),
                    work.resolve("batch-back-" + i).toString()));
        }
        try (GridFtpSession session = openGlobus()) {
            session.uploadAll(up, TransferOptions.extendedBlock(2), 5, TransferListener.NONE);
            session.downloadAll(down, TransferOptions.extendedBlock(4), 5, TransferListener.NONE);
        }
        for (int i = 0; i < locals.size(); i++) {
            assertThat(work.resolve("batch-back-" + i)).hasSameBinaryContentAs(locals.get(i));
        }
    }

    @ParameterizedTest(name = "Ferry client third-party ferry <-> globus, p={0}")
    @ValueSource(ints = {0, 4})
    void clientThirdParty(int p) throws Exception {
        Path dir = sharedDir("ferry-tp-" + p);
        try (GridFtpSession f = openFerry();
                GridFtpSession g = openGlobus()) {
            f.sendTo("/src.bin", g, dir.resolve("f2g.bin").toString(), options(p), TransferListener.NONE);
            g.sendTo(shared.resolve("src.bin").toString(), f, "/g2f-" + p + ".bin", options(p), TransferListener.NONE);
            if (p > 0) {
                // pipelined batch over cached connections, globus as the destination
                List<FilePair> files = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    files.add(new FilePair("/src.bin", dir.resolve("batch" + i).toString()));
                }
                f.sendAll(files, g, options(p), 3, TransferListener.NONE);
                for (int i = 0; i < 4; i++) {
                    assertThat(dir.resolve("batch" + i)).hasSameBinaryContentAs(original);
                }
            }
        }
        assertThat(dir.resolve("f2g.bin")).hasSameBinaryContentAs(original);
        assertThat(ferryRoot.resolve("g2f-" + p + ".bin")).hasSameBinaryContentAs(original);
    }

    @Test
    void clientPartialWithGlobus() throws Exception {
        Path dir = sharedDir("partial");
        byte[] old = bytes(FILE_BYTES, 9);
        Path target = Files.write(dir.resolve("window.bin"), old);
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));
        Path local = Files.write(work.resolve("window-local.bin"), old);
        try (GridFtpSession f = openFerry();
                GridFtpSession g = openGlobus()) {
            f.sendPartTo(
                    "/src.bin",
                    2_000_000,
                    1_500_000,
                    g,
                    target.toString(),
                    TransferOptions.extendedBlock(4),
                    TransferListener.NONE);
            g.downloadPart(
                    shared.resolve("src.bin").toString(),
                    100,
                    5000,
                    local,
                    TransferOptions.extendedBlock(2),
                    TransferListener.NONE);
        }
        assertThat(Files.readAllBytes(target)).isEqualTo(splice(old, 2_000_000, 1_500_000));
        assertThat(Files.readAllBytes(local)).isEqualTo(splice(old, 100, 5000));
    }

    @Test
    void clientRestartsThirdPartyTransfersBothWays() throws Exception {
        // the partial files a killed transfer leaves, and the ranges its 111 markers reported
        List<ByteRange> done = List.of(new ByteRange(0, 1 << 20), new ByteRange(3 << 20, 5 << 20));
        byte[] partial = splice(bytes(FILE_BYTES, 4), done);
        Path dir = sharedDir("restart");
        Path atGlobus = Files.write(dir.resolve("restart.bin"), partial);
        Files.setPosixFilePermissions(atGlobus, PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.write(ferryRoot.resolve("restart.bin"), partial);
        try (GridFtpSession f = openFerry();
                GridFtpSession g = openGlobus()) {
            f.resumeSendTo(
                    "/src.bin", g, atGlobus.toString(), TransferOptions.extendedBlock(4), done, TransferListener.NONE);
            g.resumeSendTo(
                    shared.resolve("src.bin").toString(),
                    f,
                    "/restart.bin",
                    TransferOptions.extendedBlock(4),
                    done,
                    TransferListener.NONE);
        }
        assertThat(atGlobus).hasSameBinaryContentAs(original);
        assertThat(ferryRoot.resolve("restart.bin")).hasSameBinaryContentAs(original);
    }

    @Test
    void checksumsAgreeBetweenFerryAndGlobus() throws Exception {
        try (GridFtpSession f = openFerry();
                GridFtpSession g = openGlobus()) {
            for (String algorithm : List.of("MD5", "ADLER32", "SHA1", "SHA256", "SHA512")) {
                assertThat(f.checksum(algorithm, "/src.bin"))
                        .as(algorithm)
                        .isEqualTo(
                                g.checksum(algorithm, shared.resolve("src.bin").toString()));
            }
        }
    }

    // ---- helpers ----

    private byte[] splice(byte[] base, long offset, long length) {
        return splice(base, List.of(new ByteRange(offset, offset + length)));
    }

    /** {@code base} with the ranges taken from the original data. */
    private byte[] splice(byte[] base, List<ByteRange> ranges) {
        byte[] result = base.clone();
        for (ByteRange r : ranges) {
            System.arraycopy(data, (int) r.start(), result, (int) r.start(), (int) r.length());
        }
        return result;
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static void write(Path file, byte[] content, Instant modified) throws IOException {
        Files.write(file, content);
        Files.setLastModifiedTime(file, FileTime.from(modified));
    }

    @SuppressWarnings("unused")
    private static Map<String, String> digest(Path root) throws IOException {
        return TreeDigest.of(root);
    }
}
