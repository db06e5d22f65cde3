package org.ferry.mover.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.zip.Adler32;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunk runner between two real Ferry servers on loopback: files arrive whole through lanes
 * and batches, and a file whose attempt is cut mid-transfer is retried from the ranges the
 * destination acknowledged, not from byte 0.
 */
class ChunkRunnerTest {

    private static final Authenticator ALICE = (u, p) -> u.equals("alice") && p.equals("pw");
    static final CredentialCipher CIPHER =
            CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[32]));

    @TempDir
    Path tmp;

    private Path sourceRoot;
    private Path destinationRoot;
    private GridFtpServer source;
    private GridFtpServer destination;
    private GridFtpClient client;
    private EndpointSessions sessions;
    private TrustCache trust;
    private ExecutorService lanes;

    @BeforeEach
    void start() throws Exception {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        // the source sends at most 32 MiB/s: a 64 MiB file is still moving when the test cuts it
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAuthenticator(ALICE)
                .withDataRateLimit(32L << 20));
        destination = GridFtpServer.start(GridFtpServerConfig.loopback(destinationRoot)
                .withAuthenticator(ALICE)
                .withMarkerInterval(Duration.ofMillis(100)));
        client = new GridFtpClient();
        trust = new TrustCache(tmp.resolve("no-cas"), tmp.resolve("trust-work"));
        sessions = new EndpointSessions(client, CIPHER, trust, Clock.systemUTC());
        lanes = Executors.newCachedThreadPool();
    }

    @AfterEach
    void stop() {
        lanes.shutdownNow();
        client.close();
        trust.close();
        source.close();
        destination.close();
    }

    private ChunkRequest chunk(List<FileTransfer> files, ChunkTuning tuning) {
        return new ChunkRequest(
                access(source, "alice#src"),
                access(destination, "alice#dst"),
                files,
                tuning,
                true,
                ProtectionLevel.CLEAR);
    }

    /** A chunk without checksums (sizes checked), preserving timestamps or not. */
    private ChunkRequest chunk(List<FileTransfer> files, ChunkTuning tuning, boolean preserveTimestamp) {
        return new ChunkRequest(
                access(source, "alice#src"),
                access(destination, "alice#dst"),
                files,
                tuning,
                false,
                ProtectionLevel.CLEAR,
                preserveTimestamp);
    }

    /** A password endpoint, its password sealed as the service stores it. */
    private static EndpointAccess access(GridFtpServer server, String name) {
        return new EndpointAccess(
                name,
                "ftp://127.0.0.1:" + server.port(),
                "alice",
                CIPHER.seal("pw", "endpoint-password:" + name),
                "endpoint-password:" + name,
                null,
                Map.of());
    }

    @Test
    void smallFilesInBatchesAndABigOneArriveWholeOverTwoLanes() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(5);
        for (int i = 0; i < 40; i++) {
            byte[] data = new byte[1000 + 37 * i];
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("s" + i + ".bin"), data);
            files.add(new FileTransfer("/s" + i + ".bin", "/s" + i + ".bin", data.length));
        }
        byte[] big = new byte[20 << 20];
        random.nextBytes(big);
        Files.write(sourceRoot.resolve("big.bin"), big);
        files.add(new FileTransfer("/big.bin", "/big.bin", big.length));
        Recording listener = new Recording();
        MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                .run(chunk(files, new ChunkTuning(2, 2, 8)), listener);
        assertThat(fatal).isNull();
        assertThat(listener.faults).isEmpty();
        assertThat(listener.arrived).hasSameSizeAs(files);
        for (FileTransfer file : files) {
            assertThat(Files.mismatch(
                            sourceRoot.resolve(file.sourcePath().substring(1)),
                            destinationRoot.resolve(file.destinationPath().substring(1))))
                    .as(file.sourcePath())
                    .isEqualTo(-1);
        }
        assertThat(listener.bytes.get())
                .isEqualTo(files.stream().mapToLong(FileTransfer::sizeBytes).sum());
    }

    @Test
    void aBatchFileTheDestinationHoldsShortAfterItsTransferIsCaughtAndSentAgainWhole() throws Exception {
        // ten small files in one pipelined batch (tar streams between Ferry servers); the first time
        // the batch reports f3 done, the test cuts f3 short at the destination, as a disk that lost
        // the end of a write would: the 226 alone would count it, the size check after the batch
        // must not
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(17);
        for (int i = 0; i < 10; i++) {
            byte[] data = new byte[3000 + 101 * i]; // sizes tell the files apart in onBytes
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("f" + i + ".bin"), data);
            files.add(new FileTransfer(i + 1, "/f" + i + ".bin", "/f" + i + ".bin", data.length, List.of(), 0));
        }
        FileTransfer victim = files.get(3);
        Path victimCopy = destinationRoot.resolve("f3.bin");
        Recording listener = new Recording();
        AtomicBoolean cut = new AtomicBoolean();
        listener.onBytesHook = delta -> {
            if (delta == victim.sizeBytes() && cut.compareAndSet(false, true)) {
                try (var channel = FileChannel.open(victimCopy, StandardOpenOption.WRITE)) {
                    channel.truncate(victim.sizeBytes() - 500);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                .run(
                        new ChunkRequest(
                                access(source, "alice#src"),
                                access(destination, "alice#dst"),
                                files,
                                new ChunkTuning(1, 1, 10),
                                false,
                                ProtectionLevel.CLEAR),
                        listener);
        assertThat(fatal).isNull();
        assertThat(cut).as("the batch reported f3 done").isTrue();
        assertThat(listener.faults).hasSize(1);
        assertThat(listener.faults.get(0).code()).isEqualTo(FaultCode.FILE_SIZE_CHANGED);
        assertThat(listener.faults.get(0).description()).contains("/f3.bin");
        assertThat(listener.arrived).hasSize(10);
        assertThat(listener.arrived.stream().filter(f -> f.id() == victim.id()))
                .as("f3 arrives once, after it was sent again")
                .hasSize(1);
        for (FileTransfer file : files) {
            assertThat(Files.mismatch(
                            sourceRoot.resolve(file.sourcePath().substring(1)),
                            destinationRoot.resolve(file.destinationPath().substring(1))))
                    .as(file.sourcePath())
                    .isEqualTo(-1);
        }
        assertThat(listener.bytes.get())
                .as("the short copy's bytes were taken back")
                .isEqualTo(files.stream().mapToLong(FileTransfer::sizeBytes).sum());
    }

    @Test
    void verifiedChecksumsAreReportedWithEachArrivedFile() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(23);
        for (int i = 0; i < 6; i++) {
            byte[] data = new byte[2000 + i];
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("c" + i + ".bin"), data);
            files.add(new FileTransfer("/c" + i + ".bin", "/c" + i + ".bin", data.length));
        }
        byte[] single = new byte[20 << 20]; // above the batch limit: moved on its own
        random.nextBytes(single);
        Files.write(sourceRoot.resolve("single.bin"), single);
        files.add(new FileTransfer("/single.bin", "/single.bin", single.length));
        Recording listener = new Recording();
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(files, new ChunkTuning(1, 2, 8)), listener))
                .isNull();
        assertThat(listener.arrived).hasSize(7);
        for (FileTransfer file : files) {
            byte[] content =
                    Files.readAllBytes(sourceRoot.resolve(file.sourcePath().substring(1)));
            String md5 =
                    HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
            assertThat(listener.checksums.get(file)).as(file.sourcePath()).isEqualTo("MD5:" + md5);
        }
    }

    /** A chunk that verifies with {@code algorithm}. */
    private ChunkRequest chunk(List<FileTransfer> files, ChunkTuning tuning, ChecksumAlgorithm algorithm) {
        return new ChunkRequest(
                access(source, "alice#src"),
                access(destination, "alice#dst"),
                files,
                tuning,
                true,
                ProtectionLevel.CLEAR,
                false,
                algorithm);
    }

    /**
     * The chunk's algorithm is what both ends compute: ADLER32 (8 hex digits, as
     * globus-gridftp-server prints it) for batched files and a file moved on its own, and a given
     * checksum that matches lets the file arrive.
     */
    @Test
    void adler32IsVerifiedAndAMatchingGivenChecksumLetsTheFileArrive() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(31);
        for (int i = 0; i < 4; i++) {
            byte[] data = new byte[3000 + i];
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("a" + i + ".bin"), data);
            files.add(new FileTransfer(
                    0,
                    "/a" + i + ".bin",
                    "/a" + i + ".bin",
                    data.length,
                    List.of(),
                    0,
                    null,
                    i == 0 ? adler32(data) : null));
        }
        byte[] single = new byte[17 << 20];
        random.nextBytes(single);
        Files.write(sourceRoot.resolve("alone.bin"), single);
        files.add(new FileTransfer(
                0,
                "/alone.bin",
                "/alone.bin",
                single.length,
                List.of(),
                0,
                null,
                adler32(single).toUpperCase()));
        Recording listener = new Recording();
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(files, new ChunkTuning(1, 2, 8), ChecksumAlgorithm.ADLER32), listener))
                .isNull();
        assertThat(listener.faults).isEmpty();
        assertThat(listener.arrived).hasSize(5);
        for (FileTransfer file : files) {
            byte[] content =
                    Files.readAllBytes(sourceRoot.resolve(file.sourcePath().substring(1)));
            assertThat(listener.checksums.get(file)).as(file.sourcePath()).isEqualTo("ADLER32:" + adler32(content));
            assertThat(destinationRoot.resolve(file.destinationPath().substring(1)))
                    .hasBinaryContent(content);
        }
    }

    /**
     * A given checksum the source does not match fails the file at once (no second attempt: the
     * destination holds what the source holds), naming both values, and the destination keeps
     * neither the batched file nor the one moved alone, under any name.
     */
    @Test
    void aWrongGivenChecksumFailsTheFileAtOnceAndLeavesNothingBehind() throws Exception {
        String wrong = "ab".repeat(32);
        byte[] small = new byte[4000];
        byte[] big = new byte[17 << 20];
        new Random(32).nextBytes(small);
        new Random(33).nextBytes(big);
        Files.write(sourceRoot.resolve("s.bin"), small);
        Files.write(sourceRoot.resolve("b.bin"), big);
        List<FileTransfer> files = List.of(
                new FileTransfer(0, "/s.bin", "/s.bin", small.length, List.of(), 0, null, wrong),
                new FileTransfer(0, "/s2.bin", "/s2.bin", small.length, List.of(), 0, null, null),
                new FileTransfer(0, "/b.bin", "/b.bin", big.length, List.of(), 0, null, wrong));
        Files.write(sourceRoot.resolve("s2.bin"), small);
        Recording listener = new Recording();
        assertThat(new ChunkRunner(sessions, new RetryPolicy(3, List.of(0)), lanes)
                        .run(chunk(files, new ChunkTuning(1, 2, 8), ChecksumAlgorithm.SHA256), listener))
                .isNull();
        assertThat(listener.arrived).containsExactly(files.get(1));
        assertThat(listener.faults).hasSize(2);
        assertThat(listener.gaveUp).containsExactlyInAnyOrder(files.get(0), files.get(2));
        for (MoverFault fault : listener.faults) {
            assertThat(fault.code()).isEqualTo(FaultCode.EXTERNAL_CHECKSUM_MISMATCH);
            assertThat(fault.isPermanent()).isTrue();
            assertThat(fault.description()).contains(wrong).containsAnyOf(sha256(small), sha256(big));
        }
        try (var left = Files.list(destinationRoot)) {
            assertThat(left.map(path -> path.getFileName().toString()).toList()).containsExactly("s2.bin");
        }
    }

    /**
     * Source and destination that differ after every attempt (the source's first byte changes once
     * all of it was sent): each attempt is a VERIFY_CHECKSUM fault naming both values, the last one
     * gives the file up for good, and the destination keeps nothing of it.
     */
    @Test
    void aChecksumThatDiffersEveryAttemptFailsTheFileNamingBothValues() throws Exception {
        byte[] data = new byte[17 << 20];
        new Random(34).nextBytes(data);
        Path sourceFile = sourceRoot.resolve("v.bin");
        Files.write(sourceFile, data);
        FileTransfer file = new FileTransfer("/v.bin", "/v.bin", data.length);
        Recording listener = new Recording();
        listener.onBytesHook = delta -> {
            if (delta > 0 && listener.bytes.get() == data.length) { // all of it sent: change the source
                try (FileChannel channel = FileChannel.open(sourceFile, StandardOpenOption.WRITE)) {
                    data[0]++;
                    channel.write(ByteBuffer.wrap(data, 0, 1), 0);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(List.of(file), new ChunkTuning(1, 2, 8), ChecksumAlgorithm.SHA256), listener))
                .isNull();
        assertThat(listener.arrived).isEmpty();
        assertThat(listener.faults)
                .extracting(MoverFault::code)
                .containsExactly(FaultCode.VERIFY_CHECKSUM, FaultCode.VERIFY_CHECKSUM);
        assertThat(listener.faults.get(0).isPermanent()).isFalse();
        assertThat(listener.faults.get(1).isPermanent())
                .as("given up after the last attempt")
                .isTrue();
        assertThat(listener.gaveUp).containsExactly(file);
        assertThat(listener.faults.get(1).description())
                .containsPattern("SHA256 of /v.bin is [0-9a-f]{64} at the destination, [0-9a-f]{64} at the source")
                .contains(sha256(data));
        try (var left = Files.list(destinationRoot)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    /**
     * A source file appended to while it is read (after the first bytes reached the destination):
     * the transfer ends with a copy that matches neither version; the source's MLST after it
     * shows another size than planned, so the file is a FILE_SIZE_CHANGED fault naming both sizes,
     * planned again with the new size and sent again whole. It arrives once, byte-identical to
     * the new version, and no old bytes stand under its final or temporary name.
     */
    @Test
    void aFileAppendedToWhileItIsReadIsSentAgainAsTheNewVersion() throws Exception {
        byte[] data = new byte[48 << 20]; // 1.5 s at the source's 32 MiB/s
        new Random(61).nextBytes(data);
        Path sourceFile = sourceRoot.resolve("growing.bin");
        Files.write(sourceFile, data);
        Instant planned = Files.getLastModifiedTime(sourceFile).toInstant().truncatedTo(ChronoUnit.SECONDS);
        Files.setLastModifiedTime(sourceFile, FileTime.from(planned)); // as the listing had it, to the second
        FileTransfer file = new FileTransfer(5, "/growing.bin", "/growing.bin", data.length, List.of(), 0, planned);
        byte[] tail = new byte[3 << 20];
        new Random(62).nextBytes(tail);
        Recording listener = new Recording();
        AtomicBoolean appended = new AtomicBoolean();
        listener.onBytesHook = delta -> {
            if (delta > 0 && appended.compareAndSet(false, true)) { // bytes are moving: append
                try {
                    Files.write(sourceFile, tail, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        assertThat(new ChunkRunner(sessions, new RetryPolicy(3, List.of(0)), lanes)
                        .run(chunk(List.of(file), new ChunkTuning(1, 2, 1)), listener))
                .isNull();
        assertThat(appended).isTrue();
        assertThat(listener.faults).extracting(MoverFault::code).containsExactly(FaultCode.FILE_SIZE_CHANGED);
        assertThat(listener.faults.get(0).description())
                .contains("/growing.bin", data.length + " bytes", (data.length + tail.length) + " bytes");
        assertThat(listener.arrived).hasSize(1);
        assertThat(listener.arrived.get(0).id()).isEqualTo(5);
        assertThat(listener.arrived.get(0).sizeBytes()).isEqualTo(data.length + tail.length);
        assertThat(Files.mismatch(sourceFile, destinationRoot.resolve("growing.bin")))
                .isEqualTo(-1);
        assertThat(destinationRoot.resolve(".growing.bin.ferry-part")).doesNotExist();
        assertThat(listener.bytes.get()).isEqualTo(data.length + tail.length);
    }

    /**
     * A batch file whose source grows once the batch sent it: the batch wrote it in place, so the
     * source check after the batch deletes it, reports FILE_SIZE_CHANGED and moves it again on its
     * own as the new version; the batch's other files arrive once each.
     */
    @Test
    void aBatchFileWhoseSourceChangedIsDeletedAndSentAgainOnItsOwn() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(63);
        for (int i = 0; i < 10; i++) {
            byte[] data = new byte[5000 + 103 * i]; // sizes tell the files apart in onBytes
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("g" + i + ".bin"), data);
            files.add(new FileTransfer(i + 1, "/g" + i + ".bin", "/g" + i + ".bin", data.length, List.of(), 0));
        }
        FileTransfer victim = files.get(4);
        Path victimSource = sourceRoot.resolve("g4.bin");
        Recording listener = new Recording();
        AtomicBoolean appended = new AtomicBoolean();
        listener.onBytesHook = delta -> {
            if (delta == victim.sizeBytes() && appended.compareAndSet(false, true)) { // the batch sent it
                try {
                    Files.write(victimSource, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(files, new ChunkTuning(1, 1, 10), false), listener))
                .isNull();
        assertThat(appended).as("the batch reported g4 sent").isTrue();
        assertThat(listener.faults).extracting(MoverFault::code).containsExactly(FaultCode.FILE_SIZE_CHANGED);
        assertThat(listener.faults.get(0).description()).contains("/g4.bin");
        assertThat(listener.arrived).hasSize(10);
        assertThat(listener.arrived.stream().filter(f -> f.id() == victim.id()))
                .singleElement()
                .extracting(FileTransfer::sizeBytes)
                .isEqualTo(victim.sizeBytes() + 3);
        for (FileTransfer file : files) {
            assertThat(Files.mismatch(
                            sourceRoot.resolve(file.sourcePath().substring(1)),
                            destinationRoot.resolve(file.destinationPath().substring(1))))
                    .as(file.sourcePath())
                    .isEqualTo(-1);
        }
        assertThat(listener.bytes.get())
                .as("the old copy's bytes were taken back")
                .isEqualTo(files.stream().mapToLong(FileTransfer::sizeBytes).sum() + 3);
    }

    private static String adler32(byte[] data) {
        Adler32 adler = new Adler32();
        adler.update(data);
        return String.format("%08x", adler.getValue());
    }

    private static String sha256(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    }

    /**
     * preserve_timestamp: 30 small files (pipelined batches, as tar streams between Ferry servers,
     * whose entries carry the time of archiving) and a 20 MiB file moved alone end with their
     * sources' distinct, old modification times, to the second; a file the planner listed no time
     * for gets the one the source gives now. The same files moved without it get new times.
     */
    @Test
    void preservedTimesReachBatchedFilesAndAFileMovedAlone() throws Exception {
        Files.createDirectories(sourceRoot.resolve("kept"));
        Random random = new Random(41);
        List<FileTransfer> preserved = new ArrayList<>();
        List<FileTransfer> plain = new ArrayList<>();
        Map<String, Instant> times = new HashMap<>();
        for (int i = 0; i <= 30; i++) {
            String name = i == 30 ? "alone.bin" : "t" + i + ".bin";
            byte[] data = new byte[i == 30 ? 20 << 20 : 500 + 61 * i];
            random.nextBytes(data);
            Path file = sourceRoot.resolve("kept").resolve(name);
            Files.write(file, data);
            Instant time = Instant.parse("2004-05-06T07:08:09Z")
                    .plus(Duration.ofDays(3L * i).plusSeconds(i));
            Files.setLastModifiedTime(file, FileTime.from(time));
            times.put(name, time);
            // file 7: the planner listed no time
            preserved.add(new FileTransfer(
                    i + 1, "/kept/" + name, "/kept/" + name, data.length, List.of(), 0, i == 7 ? null : time));
            plain.add(new FileTransfer(100 + i, "/kept/" + name, "/plain/" + name, data.length, List.of(), 0, time));
        }
        Files.createDirectories(destinationRoot.resolve("kept"));
        Files.createDirectories(destinationRoot.resolve("plain"));
        Instant before = Instant.now().minusSeconds(2);

        Recording listener = new Recording();
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(preserved, new ChunkTuning(2, 2, 8), true), listener))
                .isNull();
        assertThat(listener.faults).isEmpty();
        assertThat(listener.arrived).hasSameSizeAs(preserved);
        for (Map.Entry<String, Instant> time : times.entrySet()) {
            Path copy = destinationRoot.resolve("kept").resolve(time.getKey());
            assertThat(Files.mismatch(sourceRoot.resolve("kept").resolve(time.getKey()), copy))
                    .isEqualTo(-1);
            assertThat(Files.getLastModifiedTime(copy).toInstant())
                    .as(time.getKey())
                    .isEqualTo(time.getValue());
        }

        Recording without = new Recording();
        assertThat(new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                        .run(chunk(plain, new ChunkTuning(2, 2, 8), false), without))
                .isNull();
        assertThat(without.arrived).hasSameSizeAs(plain);
        for (String name : times.keySet()) {
            assertThat(Files.getLastModifiedTime(
                                    destinationRoot.resolve("plain").resolve(name))
                            .toInstant())
                    .as(name + " moved without preserve_timestamp")
                    .isAfter(before);
        }
    }

    /**
     * A destination that refuses to set a file's time (the file is immutable there, chattr +i,
     * after its bytes arrived) makes that file a fault, reported and never an arrival; the other
     * files of the batch arrive with their times.
     */
    @Test
    void aTimeTheDestinationRefusesIsAFaultOfThatFileNotAnArrival() throws Exception {
        List<FileTransfer> files = new ArrayList<>();
        Random random = new Random(43);
        Instant time = Instant.parse("1998-07-06T05:04:03Z");
        for (int i = 0; i < 8; i++) {
            byte[] data = new byte[4000 + 97 * i]; // sizes tell the files apart in onBytes
            random.nextBytes(data);
            Files.write(sourceRoot.resolve("m" + i + ".bin"), data);
            files.add(new FileTransfer(
                    i + 1, "/m" + i + ".bin", "/m" + i + ".bin", data.length, List.of(), 0, time.plusSeconds(i)));
        }
        FileTransfer victim = files.get(5);
        Path victimCopy = destinationRoot.resolve("m5.bin");
        Files.write(victimCopy, new byte[0]);
        boolean immutable = chattr("+i", victimCopy);
        if (!immutable && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI=true: this test needs root and a temporary directory whose file system"
                    + " has the immutable flag (chattr +i); it must not be skipped");
        }
        Assumptions.assumeTrue(immutable, "needs root and a file system with the immutable flag (chattr +i)");
        chattr("-i", victimCopy);
        Files.delete(victimCopy);
        Recording listener = new Recording();
        AtomicBoolean locked = new AtomicBoolean();
        listener.onBytesHook = delta -> {
            // the batch reports a file when both servers finished it: its bytes are there
            if (delta == victim.sizeBytes() && locked.compareAndSet(false, true)) {
                chattr("+i", victimCopy);
            }
        };
        try {
            MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                    .run(chunk(files, new ChunkTuning(1, 1, 10), true), listener);
            assertThat(fatal).isNull();
            assertThat(locked).as("the batch reported m5 done").isTrue();
            assertThat(listener.faults).hasSize(1);
            assertThat(listener.faults.get(0).code()).isEqualTo(FaultCode.PERMISSION_DENIED);
            assertThat(listener.faults.get(0).description())
                    .contains("Setting the modification time of /m5.bin", "MFMT");
            assertThat(listener.gaveUp).containsExactly(victim);
            assertThat(listener.arrived).hasSize(7).doesNotContain(victim);
            for (FileTransfer file : files) {
                if (file != victim) {
                    assertThat(Files.getLastModifiedTime(destinationRoot.resolve(
                                            file.destinationPath().substring(1)))
                                    .toInstant())
                            .as(file.destinationPath())
                            .isEqualTo(file.sourceModified());
                }
            }
            assertThat(listener.bytes.get())
                    .as("the refused file's bytes were taken back")
                    .isEqualTo(files.stream().mapToLong(FileTransfer::sizeBytes).sum() - victim.sizeBytes());
        } finally {
            chattr("-i", victimCopy); // or the temporary directory cannot be deleted
        }
    }

    /** @return whether {@code chattr flag file} succeeded */
    private static boolean chattr(String flag, Path file) {
        try {
            Process process = new ProcessBuilder("chattr", flag, file.toString())
                    .redirectErrorStream(true)
                    .start();
            process.getInputStream().transferTo(OutputStream.nullOutputStream());
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void aFileCutMidTransferResumesFromTheAcknowledgedRanges() throws Exception {
        byte[] data = new byte[64 << 20];
        new Random(9).nextBytes(data);
        Files.write(sourceRoot.resolve("cut.bin"), data);
        FileTransfer file = new FileTransfer("/cut.bin", "/cut.bin", data.length);
        Recording listener = new Recording();
        Future<MoverFault> run = lanes.submit(() -> new ChunkRunner(sessions, new RetryPolicy(3, List.of(0)), lanes)
                .run(chunk(List.of(file), new ChunkTuning(1, 2, 1)), listener));

        // the destination acknowledged part of the file: cut its control session, as a server
        // restart or a broken network would
        assertThat(listener.firstMarker.await(60, TimeUnit.SECONDS))
                .as("a restart marker")
                .isTrue();
        List<ByteRange> seenBeforeTheCut = listener.lastAcknowledged;
        listener.sessions.get(1).close(); // the lane opened the source first, then the destination

        assertThat(run.get(120, TimeUnit.SECONDS)).isNull();
        assertThat(listener.faults).hasSize(1);
        assertThat(listener.resumes).hasSize(1);
        List<ByteRange> skipped = listener.resumes.get(0);
        long skippedBytes = skipped.stream().mapToLong(ByteRange::length).sum();
        assertThat(skippedBytes)
                .as("bytes the second attempt did not send again")
                .isPositive()
                .isLessThan(data.length);
        for (ByteRange seen : seenBeforeTheCut) {
            assertThat(skipped.stream().anyMatch(r -> r.start() <= seen.start() && seen.end() <= r.end()))
                    .as("%s skipped, acknowledged before the cut: %s", skipped, seen)
                    .isTrue();
        }
        assertThat(Files.mismatch(sourceRoot.resolve("cut.bin"), destinationRoot.resolve("cut.bin")))
                .isEqualTo(-1);
        assertThat(listener.arrived).containsExactly(file);
        assertThat(listener.bytes.get()).isEqualTo(data.length);
    }

    @Test
    void aMissingSourceFailsItsFileAtOnceAndTheOthersStillArrive() throws Exception {
        byte[] data = new byte[5000];
        new Random(3).nextBytes(data);
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Files.write(sourceRoot.resolve("p" + i + ".bin"), data);
            files.add(new FileTransfer("/p" + i + ".bin", "/p" + i + ".bin", data.length));
        }
        FileTransfer missing = new FileTransfer("/gone.bin", "/gone.bin", 10);
        files.add(3, missing);
        Recording listener = new Recording();
        MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(3, List.of(0)), lanes)
                .run(chunk(files, new ChunkTuning(1, 1, 1)), listener);
        assertThat(fatal).isNull();
        assertThat(listener.faults).hasSize(1); // permanent: not retried
        assertThat(listener.faults.get(0).code()).isEqualTo(FaultCode.FILE_NOT_FOUND);
        assertThat(listener.faults.get(0).onSource()).isTrue();
        assertThat(listener.gaveUp).containsExactly(missing);
        assertThat(listener.arrived).hasSize(6);
    }

    /**
     * A batch that fails part way (a source file gone) deletes what it cut at the destination, and
     * only that: the files it never sent keep the older versions that stood there until their own
     * turn comes. Names differ at the destination, so the files go one STOR each (no tar stream).
     */
    @Test
    void aFailedBatchLeavesTheFilesItNeverReachedAsTheyWere() throws Exception {
        byte[] data = new byte[5000];
        new Random(11).nextBytes(data);
        byte[] older = new byte[1234]; // another size: the cleanup once took any such file for cut short
        new Random(12).nextBytes(older);
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            if (i != 2) {
                Files.write(sourceRoot.resolve("q" + i + ".bin"), data);
            }
            Files.write(destinationRoot.resolve("copy-q" + i + ".bin"), older);
            files.add(new FileTransfer(i + 1, "/q" + i + ".bin", "/copy-q" + i + ".bin", data.length, List.of(), 0));
        }
        // with two commands in flight, a failure at q2 cannot have sent q4 on: when the first file
        // of the batch's leftovers (q2) fails on its own, the later ones must be as they were
        Map<String, String> seen = new ConcurrentHashMap<>();
        Recording listener = new Recording();
        listener.onFaultHook = () -> {
            for (int i = 4; i < 8; i++) {
                Path copy = destinationRoot.resolve("copy-q" + i + ".bin");
                String state;
                try {
                    state = Arrays.equals(Files.readAllBytes(copy), older) ? "as it was" : "changed";
                } catch (IOException e) {
                    state = "gone";
                }
                seen.putIfAbsent(copy.getFileName().toString(), state);
            }
        };
        MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                .run(chunk(files, new ChunkTuning(1, 1, 2), false), listener);
        assertThat(fatal).isNull();
        assertThat(listener.faults).hasSize(1);
        assertThat(listener.faults.get(0).code()).isEqualTo(FaultCode.FILE_NOT_FOUND);
        assertThat(seen)
                .as("the copies the batch never sent, before their turn")
                .containsOnly(
                        Map.entry("copy-q4.bin", "as it was"),
                        Map.entry("copy-q5.bin", "as it was"),
                        Map.entry("copy-q6.bin", "as it was"),
                        Map.entry("copy-q7.bin", "as it was"));
        assertThat(destinationRoot.resolve("copy-q2.bin"))
                .as("the copy the failed STOR truncated is not left under its name")
                .doesNotExist();
        assertThat(listener.arrived).hasSize(7);
        for (FileTransfer file : files) {
            if (file.id() != 3) {
                assertThat(Files.readAllBytes(
                                destinationRoot.resolve(file.destinationPath().substring(1))))
                        .as(file.destinationPath())
                        .isEqualTo(data);
            }
        }
    }

    @Test
    void anUnreachableDestinationStopsTheChunkAfterItsAttempts() throws Exception {
        byte[] data = new byte[100];
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Files.write(sourceRoot.resolve("u" + i + ".bin"), data);
            files.add(new FileTransfer("/u" + i + ".bin", "/u" + i + ".bin", data.length));
        }
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort(); // closed again: nothing listens there
        }
        Recording listener = new Recording();
        ChunkRequest request = new ChunkRequest(
                access(source, "alice#src"),
                new EndpointAccess("alice#down", "ftp://127.0.0.1:" + port, "alice", null, null, null, Map.of()),
                files,
                new ChunkTuning(1, 1, 1),
                false,
                ProtectionLevel.CLEAR);
        MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes).run(request, listener);
        assertThat(fatal).isNotNull();
        assertThat(fatal.code()).isEqualTo(FaultCode.CONNECT_FAILED);
        assertThat(fatal.isPermanent()).isFalse();
        assertThat(listener.faults).hasSize(2); // two attempts at the first file, then the chunk stops
        assertThat(listener.gaveUp).containsExactly(files.get(0));
        assertThat(listener.arrived).isEmpty();
    }

    /**
     * A lane that ends without a fault gives its two sessions back; the next chunk between the same
     * endpoints (the same access) moves on those very sessions, logging in no more. A changed
     * credential (the password sealed anew) is another key: its chunk logs in afresh, and the old
     * credential's idle pair is closed. A pair whose session the server side closed is never handed out.
     */
    @Test
    void lanesReuseTheSessionsAnEarlierChunkGaveBackUnderTheSameAccess() throws Exception {
        byte[] data = new byte[3000];
        new Random(11).nextBytes(data);
        for (int i = 0; i < 3; i++) {
            Files.write(sourceRoot.resolve("r" + i + ".bin"), data);
        }
        EndpointAccess from = access(source, "alice#src");
        EndpointAccess to = access(destination, "alice#dst");
        try (IdleSessionPairs idle = new IdleSessionPairs(sessions, Clock.systemUTC())) {
            ChunkRunner runner = new ChunkRunner(sessions, idle, new RetryPolicy(2, List.of(0)), lanes);
            Recording first = new Recording();
            assertThat(runner.run(oneFile(from, to, "/r0.bin"), first)).isNull();
            assertThat(first.arrived).hasSize(1);
            assertThat(first.sessions).hasSize(2);
            assertThat(idle.size()).isEqualTo(1);

            Recording second = new Recording();
            assertThat(runner.run(oneFile(from, to, "/r1.bin"), second)).isNull();
            assertThat(second.arrived).hasSize(1);
            assertThat(second.sessions).hasSize(2);
            assertThat(second.sessions.get(0)).isSameAs(first.sessions.get(0));
            assertThat(second.sessions.get(1)).isSameAs(first.sessions.get(1));
            assertThat(Files.mismatch(sourceRoot.resolve("r1.bin"), destinationRoot.resolve("r1.bin")))
                    .isEqualTo(-1);

            EndpointAccess resealed = access(destination, "alice#dst");
            assertThat(resealed.sealedSecret()).isNotEqualTo(to.sealedSecret());
            Recording third = new Recording();
            assertThat(runner.run(oneFile(from, resealed, "/r2.bin"), third)).isNull();
            assertThat(third.arrived).hasSize(1);
            assertThat(third.sessions).doesNotContainAnyElementsOf(first.sessions);
            assertThat(first.sessions).noneMatch(GridFtpSession::isOpen);

            IdleSessionPairs.Key key = new IdleSessionPairs.Key(from, resealed, ProtectionLevel.CLEAR);
            third.sessions.get(1).close(); // as a server that timed the idle session out
            assertThat(idle.take(key)).isNull();
            assertThat(third.sessions).noneMatch(GridFtpSession::isOpen);
        }
    }

    /**
     * A lane whose transfer failed closes both its sessions, also the one that still looks open (its
     * server was mid-transfer: an unknown state), and gives back only the pair of the attempt that
     * succeeded afterwards.
     */
    @Test
    void sessionsOfAFailedAttemptAreClosedNeverGivenBack() throws Exception {
        byte[] data = new byte[64 << 20];
        new Random(12).nextBytes(data);
        Files.write(sourceRoot.resolve("cut.bin"), data);
        EndpointAccess from = access(source, "alice#src");
        EndpointAccess to = access(destination, "alice#dst");
        try (IdleSessionPairs idle = new IdleSessionPairs(sessions, Clock.systemUTC())) {
            Recording listener = new Recording();
            Future<MoverFault> run =
                    lanes.submit(() -> new ChunkRunner(sessions, idle, new RetryPolicy(3, List.of(0)), lanes)
                            .run(
                                    new ChunkRequest(
                                            from,
                                            to,
                                            List.of(new FileTransfer("/cut.bin", "/cut.bin", data.length)),
                                            new ChunkTuning(1, 2, 1),
                                            false,
                                            ProtectionLevel.CLEAR),
                                    listener));
            assertThat(listener.firstMarker.await(60, TimeUnit.SECONDS)).isTrue();
            GridFtpSession cutSource = listener.sessions.get(0);
            listener.sessions.get(1).close(); // the destination's control session cut mid-transfer

            assertThat(run.get(120, TimeUnit.SECONDS)).isNull();
            assertThat(listener.faults).hasSize(1);
            assertThat(listener.arrived).hasSize(1);
            assertThat(cutSource.isOpen())
                    .as("the source session of the failed attempt")
                    .isFalse();
            assertThat(idle.size()).isEqualTo(1);
            IdleSessionPairs.Pair kept = idle.take(new IdleSessionPairs.Key(from, to, ProtectionLevel.CLEAR));
            assertThat(kept).isNotNull();
            assertThat(List.of(kept.source(), kept.destination()))
                    .doesNotContainAnyElementsOf(listener.sessions.subList(0, 2))
                    .allMatch(GridFtpSession::isOpen);
            kept.source().close();
            kept.destination().close();
        }
        assertThat(Files.mismatch(sourceRoot.resolve("cut.bin"), destinationRoot.resolve("cut.bin")))
                .isEqualTo(-1);
    }

    /**
     * A destination at its session limit (ferry-gridftp {@code --max-sessions 1}, its one session
     * held by the test) answers the lane's logins with 421. The logins no file's attempt reports (the
     * lane's first, and the pipelined batch's) are reported as refused sessions, so that the service
     * counts them for the optimizer; the files' own attempts report theirs as transient faults; no
     * file fails for good and nothing arrives.
     */
    @Test
    void loginsRefusedAsBusyAreReportedThoughNoFileFails() throws Exception {
        byte[] data = new byte[2000];
        new Random(21).nextBytes(data);
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Files.write(sourceRoot.resolve("busy" + i + ".bin"), data);
            files.add(new FileTransfer("/busy" + i + ".bin", "/busy" + i + ".bin", data.length));
        }
        Path busyRoot = Files.createDirectory(tmp.resolve("busy"));
        try (GridFtpServer busy = GridFtpServer.start(GridFtpServerConfig.loopback(busyRoot)
                        .withAuthenticator(ALICE)
                        .withMaxSessions(1));
                Socket held = new Socket("127.0.0.1", busy.port())) {
            held.setSoTimeout(10_000);
            BufferedReader banner =
                    new BufferedReader(new InputStreamReader(held.getInputStream(), StandardCharsets.US_ASCII));
            assertThat(banner.readLine()).as("the session the test holds").startsWith("220 ");
            Recording listener = new Recording();
            MoverFault fatal = new ChunkRunner(sessions, new RetryPolicy(2, List.of(0)), lanes)
                    .run(
                            new ChunkRequest(
                                    access(source, "alice#src"),
                                    access(busy, "alice#busy"),
                                    files,
                                    new ChunkTuning(1, 1, 8),
                                    false,
                                    ProtectionLevel.CLEAR),
                            listener);
            // the lane's first login (asking whether both speak MODE E), then the batch's
            assertThat(listener.refused).hasSize(2).allSatisfy(refusal -> {
                assertThat(refusal.code()).isEqualTo(FaultCode.ENDPOINT_ERROR);
                assertThat(refusal.isPermanent()).isFalse();
                assertThat(refusal.description()).contains("421");
            });
            // the batch's files then go one by one: the first one's two attempts are its own faults
            assertThat(listener.faults).hasSize(2).allSatisfy(fault -> {
                assertThat(fault.isPermanent()).isFalse();
                assertThat(fault.description()).contains("421");
            });
            assertThat(fatal).isNotNull();
            assertThat(fatal.code()).isEqualTo(FaultCode.ENDPOINT_ERROR);
            assertThat(listener.arrived).isEmpty();
        }
        try (var left = Files.list(busyRoot)) {
            assertThat(left).isEmpty();
        }
    }

    private static ChunkRequest oneFile(EndpointAccess from, EndpointAccess to, String path) throws IOException {
        return new ChunkRequest(
                from,
                to,
                List.of(new FileTransfer(path, path, 3000)),
                new ChunkTuning(1, 1, 1),
                false,
                ProtectionLevel.CLEAR);
    }

    /** Records what the runner reports. */
    private static final class Recording implements ChunkListener {
        final List<GridFtpSession> sessions = new CopyOnWriteArrayList<>();
        final List<FileTransfer> arrived = new CopyOnWriteArrayList<>();
        final List<MoverFault> faults = new CopyOnWriteArrayList<>();
        final List<MoverFault> refused = new CopyOnWriteArrayList<>();
        final List<FileTransfer> gaveUp = new CopyOnWriteArrayList<>();
        final List<List<ByteRange>> resumes = new CopyOnWriteArrayList<>();
        final AtomicLong bytes = new AtomicLong();
        final CountDownLatch firstMarker = new CountDownLatch(1);
        final Map<FileTransfer, String> checksums = new ConcurrentHashMap<>();
        volatile List<ByteRange> lastAcknowledged = List.of();
        volatile LongConsumer onBytesHook = delta -> {};
        volatile Runnable onFaultHook = () -> {};

        @Override
        public boolean isStopped() {
            return false;
        }

        @Override
        public void sessionOpened(GridFtpSession session) {
            sessions.add(session);
        }

        @Override
        public void sessionClosed(GridFtpSession session) {}

        @Override
        public void onBytes(long delta) {
            bytes.addAndGet(delta);
            onBytesHook.accept(delta);
        }

        @Override
        public void onSessionRefused(MoverFault fault) {
            refused.add(fault);
        }

        @Override
        public void onRestartMarker(FileTransfer file, List<ByteRange> acknowledged) {
            if (firstMarker.getCount() > 0) {
                lastAcknowledged = acknowledged;
                firstMarker.countDown();
            }
        }

        @Override
        public void onResume(FileTransfer file, List<ByteRange> skipped) {
            resumes.add(skipped);
        }

        @Override
        public void onFileArrived(FileTransfer file, long size, String checksum) {
            arrived.add(file);
            if (checksum != null) {
                checksums.put(file, checksum);
            }
        }

        @Override
        public void onFault(
                FileTransfer file, MoverFault fault, int attempt, boolean willRetry, List<ByteRange> acknowledged) {
            onFaultHook.run();
            faults.add(fault);
            if (!willRetry) {
                gaveUp.add(file);
            }
        }
    }
}
