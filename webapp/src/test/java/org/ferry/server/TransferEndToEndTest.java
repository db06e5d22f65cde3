package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.Adler32;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Real transfers: two in-JVM Ferry GridFTP servers on temporary directories, the whole service
 * over real HTTP, H2 in a temporary FERRY_HOME, and the personal endpoint.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class TransferEndToEndTest {

    private static final Path HOME = TestHomes.create("ferry-e2e-home");
    private static final Path PERSONAL = TestHomes.create("ferry-e2e-personal");
    private static final Path SITE_A = TestHomes.create("ferry-e2e-a");
    private static final Path SITE_B = TestHomes.create("ferry-e2e-b");
    /** Serves SITE_A again, sending at most 64 MiB/s: its transfers are still running when a test acts. */
    private static final long SLOW_BYTES_PER_SECOND = 64L << 20;

    private static GridFtpServer serverA;
    private static GridFtpServer serverB;
    private static GridFtpServer slowA;
    /** Serves SITE_A at 4 MiB/s: a task of 100 MB from it runs for 25 s or more. */
    private static GridFtpServer crawlA;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.personal-endpoint.root", PERSONAL::toString);
        registry.add("ferry.personal-endpoint.port", () -> "0");
        registry.add("ferry.transfer.max-attempts", () -> "2");
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
        registry.add("ferry.transfer.progress-interval-seconds", () -> "0");
    }

    @BeforeAll
    static void startServers() throws IOException {
        serverA = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_A)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password)));
        serverB = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_B)
                .withAuthenticator((user, password) -> "bob".equals(user) && "pw-b".equals(password)));
        slowA = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_A)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password))
                .withDataRateLimit(SLOW_BYTES_PER_SECOND));
        crawlA = GridFtpServer.start(GridFtpServerConfig.loopback(SITE_A)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password))
                .withDataRateLimit(4L << 20));
    }

    @AfterAll
    static void stopServers() {
        serverA.close();
        serverB.close();
        slowA.close();
        crawlA.close();
    }

    @LocalServerPort
    int port;

    ApiClient api;

    @BeforeEach
    void connect() throws IOException {
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        if (api.get("/v0.10/endpoint/admin%23site-a").status() == 404) {
            api.post(
                    "/v0.10/endpoint",
                    Map.of(
                            "canonical_name",
                            "admin#site-a",
                            "url",
                            "ftp://127.0.0.1:" + serverA.port(),
                            "username",
                            "alice",
                            "password",
                            "pw-a"));
            api.post(
                    "/v0.10/endpoint",
                    Map.of(
                            "canonical_name",
                            "admin#site-b",
                            "url",
                            "ftp://127.0.0.1:" + serverB.port(),
                            "username",
                            "bob",
                            "password",
                            "pw-b"));
            api.post(
                    "/v0.10/endpoint",
                    Map.of(
                            "canonical_name",
                            "admin#slow-a",
                            "url",
                            "ftp://127.0.0.1:" + slowA.port(),
                            "username",
                            "alice",
                            "password",
                            "pw-a"));
            api.post(
                    "/v0.10/endpoint",
                    Map.of(
                            "canonical_name",
                            "admin#crawl-a",
                            "url",
                            "ftp://127.0.0.1:" + crawlA.port(),
                            "username",
                            "alice",
                            "password",
                            "pw-a"));
        }
    }

    /**
     * A burst of one-file tasks submitted at once by several clients: every one ends SUCCEEDED,
     * and the engine never takes a task that has just ended for one another instance drives (it
     * used to log "driven by another instance now" and cancel the last chunk of such tasks).
     */
    @Test
    void aBurstOfSmallTasksAllSucceedAndNoneIsFencedOffByItsOwnInstance(CapturedOutput output) throws Exception {
        int tasks = 64;
        for (int i = 0; i < tasks; i++) {
            write(SITE_A.resolve("burst/f" + i), ("small file " + i).getBytes(StandardCharsets.UTF_8));
        }
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> submitted = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                String name = "f" + i;
                submitted.add(clients.submit(() -> {
                    ApiClient.Answer accepted =
                            api.post("/v0.10/transfer", transfer("/burst/" + name, "/burst-copy/" + name, false));
                    assertThat(accepted.status())
                            .as(String.valueOf(accepted.body()))
                            .isEqualTo(202);
                    return accepted.body().get("task_id").asString();
                }));
            }
            for (Future<String> taskId : submitted) {
                JsonNode task = runToEndOf(taskId.get());
                assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(snapshot(SITE_B.resolve("burst-copy"))).isEqualTo(snapshot(SITE_A.resolve("burst")));
        assertThat(output.getAll()).doesNotContain("driven by another instance");
    }

    @Test
    void recursiveTreeArrivesByteIdenticalAndTaskSucceeds() throws IOException {
        Path tree = SITE_A.resolve("tree");
        write(tree.resolve("a.txt"), "hello ferry\n".getBytes(StandardCharsets.UTF_8));
        write(tree.resolve("with space/ü grüße.bin"), random(300_000, 1));
        write(tree.resolve("x/y/z.dat"), random(2_500_000, 2));
        write(tree.resolve("x/zero"), new byte[0]);
        Files.createDirectories(tree.resolve("empty/deeper"));

        Map<String, Object> transfer = transfer("/tree", "/copy/of/tree", true);
        transfer.put("verify_checksum", true);
        JsonNode task = runToEnd(transfer);

        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files").asLong()).isEqualTo(4);
        assertThat(task.get("directories").asLong()).isEqualTo(5);
        assertThat(task.get("files_transferred").asLong()).isEqualTo(4);
        assertThat(task.get("bytes_transferred").asLong()).isEqualTo(12 + 300_000 + 2_500_000);
        assertThat(task.get("subtasks_total").asLong()).isEqualTo(4);
        assertThat(task.get("subtasks_succeeded").asLong()).isEqualTo(4);
        assertThat(task.get("subtasks_pending").asLong()).isZero();
        assertThat(task.get("completion_time").isNull()).isFalse();
        assertThat(task.get("fatal_error").isNull()).isTrue();
        assertThat(snapshot(SITE_B.resolve("copy/of/tree"))).isEqualTo(snapshot(tree));
        assertThat(SITE_B.resolve("copy/of/tree/empty/deeper")).isDirectory();

        List<String> codes = eventCodes(task);
        assertThat(codes).contains("STARTED", "SUCCEEDED");
        assertThat(codes.get(0)).isEqualTo("SUCCEEDED");
        assertThat(codes.get(codes.size() - 1)).isEqualTo("STARTED");

        // again with sync level 1 (size): nothing to move
        Map<String, Object> again = transfer("/tree", "/copy/of/tree", true);
        again.put("sync_level", 1);
        JsonNode synced = runToEnd(again);
        assertThat(synced.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(synced.get("files_skipped").asLong()).isEqualTo(4);
        assertThat(synced.get("files_transferred").asLong()).isZero();

        // same size, other bytes: level 1 (size) keeps it, level 3 (checksum) copies it again
        Path changed = SITE_B.resolve("copy/of/tree/a.txt");
        Files.write(changed, "HELLO FERRY\n".getBytes(StandardCharsets.UTF_8));
        assertThat(runToEnd(again).get("files_skipped").asLong()).isEqualTo(4);
        Map<String, Object> byChecksum = transfer("/tree", "/copy/of/tree", true);
        byChecksum.put("sync_level", "checksum");
        JsonNode repaired = runToEnd(byChecksum);
        assertThat(repaired.get("sync_level").asInt()).isEqualTo(3);
        assertThat(repaired.get("files_transferred").asLong()).isEqualTo(1);
        assertThat(repaired.get("files_skipped").asLong()).isEqualTo(3);
        assertThat(Files.readString(changed)).isEqualTo("hello ferry\n");
    }

    /**
     * {@code ferry_verify_tree_digest}: after the files arrived the service compares one digest of
     * each tree on the two servers (CKSM SHA256-TREE). A clean copy verifies; one destination file
     * with other bytes of the same size, which sync level 1 (size) leaves alone, fails the task with
     * VERIFY_CHECKSUM naming the tree; what cannot go with it is refused by name.
     */
    @Test
    void treeDigestVerifiesACopyAndFailsTheTaskOnOneFileThatDiffers() throws IOException {
        Path tree = SITE_A.resolve("digest-tree");
        for (int i = 0; i < 20; i++) {
            write(tree.resolve("d" + (i % 3) + "/f" + i + ".bin"), random(1000 + i, 100 + i));
        }
        Map<String, Object> transfer = transfer("/digest-tree", "/digest-copy", true);
        transfer.put("ferry_verify_tree_digest", true);
        JsonNode task = runToEnd(transfer);
        assertThat(task.get("status").asString())
                .as(String.valueOf(task.get("fatal_error")))
                .isEqualTo("SUCCEEDED");
        assertThat(eventCodes(task)).contains("TREE_DIGEST_VERIFIED");
        assertThat(task.get("ferry_verify_tree_digest").asBoolean())
                .as("GET /task/{id} shows the option back")
                .isTrue();
        assertThat(snapshot(SITE_B.resolve("digest-copy"))).isEqualTo(snapshot(tree));

        Path changed = SITE_B.resolve("digest-copy/d1/f4.bin");
        byte[] bytes = Files.readAllBytes(changed);
        bytes[0] ^= 1;
        Files.write(changed, bytes);
        Map<String, Object> again = transfer("/digest-tree", "/digest-copy", true);
        again.put("sync_level", 1);
        again.put("ferry_verify_tree_digest", true);
        JsonNode failed = runToEnd(again);
        assertThat(failed.get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.get("files_skipped").asLong()).isEqualTo(20);
        assertThat(failed.get("fatal_error").get("code").asString()).isEqualTo("VERIFY_CHECKSUM");
        assertThat(failed.get("fatal_error").get("description").asString())
                .contains("SHA256-TREE", "/digest-tree", "/digest-copy");
        assertThat(eventCodes(failed)).doesNotContain("TREE_DIGEST_VERIFIED");

        Map<String, Object> fileOnly = transfer("/digest-tree/d0/f0.bin", "/digest-one.bin", false);
        fileOnly.put("ferry_verify_tree_digest", true);
        Map<String, Object> filtered = transfer("/digest-tree", "/digest-filtered", true);
        filtered.put("ferry_verify_tree_digest", true);
        filtered.put("filter_rules", List.of(Map.of("DATA_TYPE", "filter_rule", "method", "exclude", "name", "*.bin")));
        for (Map<String, Object> refused : List.of(fileOnly, filtered)) {
            ApiClient.Answer answer = api.post("/v0.10/transfer", refused);
            assertThat(answer.status()).as(String.valueOf(answer.body())).isEqualTo(400);
            assertThat(answer.body().get("field").asString()).isEqualTo("ferry_verify_tree_digest");
        }
    }

    @Test
    void fileItemWritesExactlyTheDestinationPath() throws IOException {
        write(SITE_A.resolve("single/data.bin"), random(70_000, 3));
        JsonNode task = runToEnd(transfer("/single/data.bin", "/new/dir/renamed.bin", false));
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("ferry_verify_tree_digest").asBoolean()).isFalse();
        assertThat(Files.readAllBytes(SITE_B.resolve("new/dir/renamed.bin")))
                .isEqualTo(Files.readAllBytes(SITE_A.resolve("single/data.bin")));
    }

    @Test
    void missingSourceFailsAtOnceNamingTheFile() {
        JsonNode task = runToEnd(transfer("/does/not/exist.bin", "/x.bin", false));
        assertThat(task.get("status").asString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(task.get("fatal_error").get("description").asString()).contains("/does/not/exist.bin");
        assertThat(task.get("is_ok").isNull()).isTrue(); // Globus: is_ok only means something while ACTIVE
        JsonNode errors = api.get("/v0.10/task/" + task.get("task_id").asString() + "/event_list?filter=is_error:1")
                .body();
        assertThat(errors.get("DATA").get(0).get("code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(errors.get("DATA").get(0).get("is_error").asBoolean()).isTrue();
    }

    @Test
    void skipSourceErrorsSkipsAMissingItemAndMovesTheRest() throws IOException {
        write(SITE_A.resolve("skip/here.bin"), random(10_000, 11));
        Map<String, Object> transfer = new HashMap<>(transfer("/skip/here.bin", "/skipped/here.bin", false));
        transfer.put(
                "DATA",
                List.of(
                        Map.of(
                                "DATA_TYPE",
                                "transfer_item",
                                "source_path",
                                "/skip/here.bin",
                                "destination_path",
                                "/skipped/here.bin"),
                        Map.of(
                                "DATA_TYPE",
                                "transfer_item",
                                "source_path",
                                "/skip/gone.bin",
                                "destination_path",
                                "/skipped/gone.bin")));
        transfer.put("skip_source_errors", true);
        JsonNode task = runToEnd(transfer);
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("skip_source_errors").asBoolean()).isTrue();
        assertThat(task.get("subtasks_skipped_errors").asLong()).isEqualTo(1);
        assertThat(task.get("files_transferred").asLong()).isEqualTo(1);
        assertThat(Files.readAllBytes(SITE_B.resolve("skipped/here.bin")))
                .isEqualTo(Files.readAllBytes(SITE_A.resolve("skip/here.bin")));
        assertThat(SITE_B.resolve("skipped/gone.bin")).doesNotExist();
        assertThat(eventCodesOf(task.get("task_id").asString())).contains("SKIPPED_ERRORS");
        JsonNode skipped = api.get("/v0.10/task/" + task.get("task_id").asString() + "/skipped_errors")
                .body()
                .get("DATA");
        assertThat(skipped.size()).isEqualTo(1);
        assertThat(skipped.get(0).get("source_path").asString()).isEqualTo("/skip/gone.bin");
        assertThat(skipped.get(0).get("destination_path").asString()).isEqualTo("/skipped/gone.bin");
        assertThat(skipped.get(0).get("error_code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(skipped.get(0).get("error_time").isNull()).isFalse();
        JsonNode arrived = api.get("/v0.10/task/" + task.get("task_id").asString() + "/successful_transfers")
                .body()
                .get("DATA");
        assertThat(arrived.size()).isEqualTo(1);
        assertThat(arrived.get(0).get("source_path").asString()).isEqualTo("/skip/here.bin");
    }

    @Test
    void aOneFileTaskSubmittedBehindABigOneIsNotQueuedBehindIt() throws IOException {
        // 5,000 files (100 MB) from a source sending 4 MiB/s: ten chunks of 500 for two worker
        // threads, 25 s or more; the one-file task waits for one chunk at most
        Path many = SITE_A.resolve("many");
        byte[] data = random(20_000, 21);
        for (int i = 0; i < 5000; i++) {
            write(many.resolve(String.format("d%02d/f%04d", i / 500, i)), data);
        }
        write(SITE_A.resolve("one/file.bin"), random(1000, 22));
        Map<String, Object> big = transfer("/many", "/many-copy", true);
        big.put("source_endpoint", "admin#crawl-a");
        String bigId = api.post("/v0.10/transfer", big).body().get("task_id").asString();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .alias("a file of the big task arriving")
                .until(() -> api.get("/v0.10/task/" + bigId)
                                .body()
                                .get("files_transferred")
                                .asLong()
                        > 0);
        JsonNode small = runToEnd(transfer("/one/file.bin", "/one-copy/file.bin", false));
        assertThat(small.get("status").asString()).isEqualTo("SUCCEEDED");
        JsonNode bigNow = api.get("/v0.10/task/" + bigId).body();
        assertThat(bigNow.get("status").asString())
                .as("the big task is still moving when the small one has ended")
                .isEqualTo("ACTIVE");
        api.post("/v0.10/task/" + bigId + "/cancel", Map.of()); // 25 s more prove nothing new
        JsonNode bigEnd = runToEndOf(bigId);
        assertThat(bigEnd.get("status").asString()).isEqualTo("FAILED");
        assertThat(Files.readAllBytes(SITE_B.resolve("one-copy/file.bin")))
                .isEqualTo(Files.readAllBytes(SITE_A.resolve("one/file.bin")));
    }

    @Test
    void cancelStopsATransferInFlight() throws IOException {
        Path big = SITE_A.resolve("big/sparse.bin");
        Files.createDirectories(big.getParent());
        try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(4L << 30); // sparse: costs no disk on the source
        }
        try {
            // from the throttled source: 4 GiB take 64 s, so the transfer is in flight when cancelled
            Map<String, Object> transfer = transfer("/big", "/big-copy", true);
            transfer.put("source_endpoint", "admin#slow-a");
            ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
            String taskId = accepted.body().get("task_id").asString();
            // written under its temporary name until checked (never cut short under its own)
            Path copy = SITE_B.resolve("big-copy/.sparse.bin.ferry-part");
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .alias("bytes arriving before the cancel")
                    .until(() -> sizeOf(copy) > 0);
            ApiClient.Answer canceled = api.post("/v0.10/task/" + taskId + "/cancel", Map.of());
            assertThat(canceled.body().get("code").asString()).isEqualTo("Canceled");
            JsonNode task = api.get("/v0.10/task/" + taskId).body();
            assertThat(task.get("status").asString()).isEqualTo("FAILED");
            assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("CANCELED");
            // the transfer in flight is aborted: the destination stops growing, well short of 4 GiB
            // (a transfer still running adds 64 MiB/s and reaches neither a still second nor 4 GiB)
            long stable = awaitStableSize(copy, Duration.ofSeconds(30));
            assertThat(stable).isLessThan(4L << 30);
            List<String> codes = eventCodesOf(taskId);
            assertThat(codes.get(0)).isEqualTo("CANCELED");
            assertThat(codes).doesNotContain("SUCCEEDED");
        } finally {
            Files.deleteIfExists(big);
            Files.deleteIfExists(SITE_B.resolve("big-copy/sparse.bin"));
            Files.deleteIfExists(SITE_B.resolve("big-copy/.sparse.bin.ferry-part"));
        }
    }

    /** Waits until {@code file} keeps its size for a whole second; returns that size. */
    private static long awaitStableSize(Path file, Duration limit) throws IOException {
        Instant giveUp = Instant.now().plus(limit);
        long before = sizeOf(file);
        while (Instant.now().isBefore(giveUp)) {
            sleepMillis(1000);
            long now = sizeOf(file);
            if (now == before) {
                return now;
            }
            before = now;
        }
        throw new AssertionError(file + " still growing after " + limit + ": " + before + " bytes");
    }

    @Test
    void deadlinePassingFailsTheTaskAsExpired() throws IOException {
        Path big = SITE_A.resolve("slow/sparse.bin");
        Files.createDirectories(big.getParent());
        try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(8L << 30);
        }
        try {
            // from the throttled source: 8 GiB take over two minutes, the deadline comes after 2 s
            Map<String, Object> transfer = transfer("/slow", "/slow-copy", true);
            transfer.put("source_endpoint", "admin#slow-a");
            transfer.put("deadline", OffsetDateTime.now().plusSeconds(2).toString());
            JsonNode task = runToEnd(transfer);
            assertThat(task.get("status").asString()).isEqualTo("FAILED");
            assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("EXPIRED");
            assertThat(task.get("deadline").isNull()).isFalse();
            assertThat(eventCodesOf(task.get("task_id").asString()).get(0)).isEqualTo("EXPIRED");
        } finally {
            Files.deleteIfExists(big);
            Files.deleteIfExists(SITE_B.resolve("slow-copy/sparse.bin"));
            Files.deleteIfExists(SITE_B.resolve("slow-copy/.sparse.bin.ferry-part"));
        }
    }

    /** @return the file's size, 0 while it does not exist (also when it goes away as it is asked) */
    private static long sizeOf(Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    private List<String> eventCodesOf(String taskId) {
        return api.get("/v0.10/task/" + taskId + "/event_list")
                .body()
                .get("DATA")
                .findValuesAsString("code");
    }

    @Test
    void lsListsAnEndpointDirectory() throws IOException {
        write(SITE_A.resolve("listing/f 1.txt"), new byte[5]);
        Files.createDirectories(SITE_A.resolve("listing/sub"));
        JsonNode listing = api.get("/v0.10/operation/endpoint/admin%23site-a/ls?path=/listing")
                .body();
        assertThat(listing.get("DATA_TYPE").asString()).isEqualTo("file_list");
        assertThat(listing.get("path").asString()).isEqualTo("/listing/");
        Map<String, String> types = new TreeMap<>();
        listing.get("DATA")
                .forEach(f -> types.put(f.get("name").asString(), f.get("type").asString()));
        assertThat(types).containsEntry("f 1.txt", "file").containsEntry("sub", "dir");
        ApiClient.Answer missing = api.get("/v0.10/operation/endpoint/admin%23site-a/ls?path=/nope");
        assertThat(missing.status()).isEqualTo(404);
    }

    @Test
    void personalEndpointIsRegisteredAndServesItsRoot() throws IOException {
        write(PERSONAL.resolve("mine.txt"), "mine".getBytes(StandardCharsets.UTF_8));
        JsonNode endpoint = api.get("/v0.10/endpoint/admin%23personal").body();
        assertThat(endpoint.get("url").asString()).startsWith("ftp://127.0.0.1:");
        assertThat(endpoint.get("username").asString()).isEqualTo("ferry");
        JsonNode listing =
                api.get("/v0.10/operation/endpoint/admin%23personal/ls").body();
        assertThat(listing.get("DATA").findValuesAsString("name")).contains("mine.txt");
    }

    /**
     * checksum_algorithm selects what verify_checksum compares: ADLER32 (the task's) on one file,
     * SHA256 (named by the item, any case) on a tree of small files moved in a pipelined batch;
     * successful_transfers shows the algorithm and the value, which are the file's own.
     */
    @Test
    void adler32AndSha256VerifyAndShowInSuccessfulTransfers() throws IOException {
        byte[] single = random(20_000_000, 41); // above the batch limit: moved on its own
        write(SITE_A.resolve("sums/big.bin"), single);
        Map<String, Object> adler = transfer("/sums/big.bin", "/sums-copy/big.bin", false);
        adler.put("verify_checksum", true);
        adler.put("checksum_algorithm", "adler32");
        JsonNode task = runToEnd(adler);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        JsonNode arrived = successfulTransfers(task);
        assertThat(arrived.size()).isEqualTo(1);
        assertThat(arrived.get(0).get("checksum_algorithm").asString()).isEqualTo("ADLER32");
        Adler32 expected = new Adler32();
        expected.update(single);
        assertThat(arrived.get(0).get("checksum").asString()).isEqualTo(String.format("%08x", expected.getValue()));
        assertThat(Files.readAllBytes(SITE_B.resolve("sums-copy/big.bin"))).isEqualTo(single);

        write(SITE_A.resolve("sums/tree/a.bin"), random(3_000, 42));
        write(SITE_A.resolve("sums/tree/b.bin"), random(5_000, 43));
        Map<String, Object> sha = transfer("/sums/tree", "/sums-copy/tree", true);
        sha.put("verify_checksum", true);
        sha.put(
                "DATA",
                List.of(Map.of(
                        "source_path",
                        "/sums/tree",
                        "destination_path",
                        "/sums-copy/tree",
                        "recursive",
                        true,
                        "checksum_algorithm",
                        "Sha256")));
        JsonNode tree = runToEnd(sha);
        assertThat(tree.get("status").asString()).as(tree.toString()).isEqualTo("SUCCEEDED");
        JsonNode files = successfulTransfers(tree);
        assertThat(files.size()).isEqualTo(2);
        for (JsonNode file : files) {
            assertThat(file.get("checksum_algorithm").asString()).isEqualTo("SHA256");
            byte[] content = Files.readAllBytes(
                    SITE_A.resolve(file.get("source_path").asString().substring(1)));
            assertThat(file.get("checksum").asString()).isEqualTo(HexFormat.of().formatHex(sha256(content)));
        }
    }

    /**
     * A file item's external_checksum: a right one verifies (and shows); a wrong one fails the file
     * and the task with EXTERNAL_CHECKSUM_MISMATCH naming both values, and the destination holds
     * neither file under its final name (nor a temporary one) - one moved on its own, one in a
     * pipelined batch.
     */
    @Test
    void externalChecksumVerifiesOrFailsTheFileNamingBothValues() throws IOException {
        byte[] small = random(4_000, 51);
        byte[] big = random(17_000_000, 52);
        write(SITE_A.resolve("given/small.bin"), small);
        write(SITE_A.resolve("given/big.bin"), big);
        String smallSum = HexFormat.of().formatHex(sha256(small));
        Map<String, Object> right = transfer("/given/small.bin", "/given-ok/small.bin", false);
        right.put(
                "DATA",
                List.of(Map.of(
                        "source_path",
                        "/given/small.bin",
                        "destination_path",
                        "/given-ok/small.bin",
                        "external_checksum",
                        smallSum.toUpperCase(Locale.ROOT),
                        "checksum_algorithm",
                        "SHA256")));
        JsonNode ok = runToEnd(right);
        assertThat(ok.get("status").asString()).as(ok.toString()).isEqualTo("SUCCEEDED");
        assertThat(ok.get("verify_checksum").asBoolean()).isFalse(); // the given value is checked anyway
        JsonNode shown = successfulTransfers(ok).get(0);
        assertThat(shown.get("checksum_algorithm").asString()).isEqualTo("SHA256");
        assertThat(shown.get("checksum").asString()).isEqualTo(smallSum);
        assertThat(Files.readAllBytes(SITE_B.resolve("given-ok/small.bin"))).isEqualTo(small);

        String wrong = "0".repeat(64);
        Map<String, Object> bad = transfer("/given/small.bin", "/given-bad/small.bin", false);
        bad.put("checksum_algorithm", "SHA256");
        bad.put("verify_checksum", true);
        bad.put(
                "DATA",
                List.of(
                        Map.of(
                                "source_path",
                                "/given/small.bin",
                                "destination_path",
                                "/given-bad/small.bin",
                                "external_checksum",
                                wrong),
                        Map.of(
                                "source_path",
                                "/given/big.bin",
                                "destination_path",
                                "/given-bad/big.bin",
                                "external_checksum",
                                wrong)));
        JsonNode failed = runToEnd(bad);
        assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("FAILED");
        assertThat(failed.get("fatal_error").get("code").asString()).isEqualTo("EXTERNAL_CHECKSUM_MISMATCH");
        String description = failed.get("fatal_error").get("description").asString();
        assertThat(description).contains(wrong);
        assertThat(description).containsAnyOf(smallSum, HexFormat.of().formatHex(sha256(big)));
        assertThat(successfulTransfers(failed).size()).isZero();
        try (Stream<Path> left = Files.list(SITE_B.resolve("given-bad"))) {
            assertThat(left.map(path -> path.getFileName().toString()).toList())
                    .as("no file whose checksum did not verify stands at the destination")
                    .doesNotContain("small.bin", "big.bin", ".small.bin.ferry-part");
        }
    }

    /**
     * A source file appended to while it is read (a file moved on its own, from the source sending
     * 4 MiB/s, once its first bytes reached the destination's temporary name): the source's MLST
     * after the transfer differs from the listing, and the task still ends SUCCEEDED, with the
     * destination byte-identical to the new version, a FILE_SIZE_CHANGED event naming both sizes,
     * and successful_transfers showing the new size; the old version's bytes never stand under the
     * final name.
     */
    @Test
    void aSourceFileAppendedToWhileItIsReadIsSentAgainAsTheNewVersion() throws IOException {
        byte[] first = random(17 << 20, 71); // above the batch limit: moved on its own, 4 s from crawl-a
        byte[] appended = random(1 << 20, 72);
        Path source = SITE_A.resolve("growing/log.bin");
        write(source, first);
        Map<String, Object> transfer = transfer("/growing/log.bin", "/growing-copy/log.bin", false);
        transfer.put("source_endpoint", "admin#crawl-a");
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        Path part = SITE_B.resolve("growing-copy/.log.bin.ferry-part");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(20))
                .alias("the first bytes at the destination")
                .until(() -> sizeOf(part) > 0);
        Files.write(source, appended, StandardOpenOption.APPEND);

        JsonNode task = runToEndOf(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        byte[] now = Files.readAllBytes(source);
        assertThat(now).hasSize(first.length + appended.length);
        assertThat(Files.mismatch(source, SITE_B.resolve("growing-copy/log.bin")))
                .isEqualTo(-1);
        assertThat(part).doesNotExist();
        JsonNode events =
                api.get("/v0.10/task/" + taskId + "/event_list").body().get("DATA");
        JsonNode changed = null;
        for (JsonNode event : events) {
            if (event.get("code").asString().equals("FILE_SIZE_CHANGED")) {
                changed = event;
            }
        }
        assertThat(changed).as(events.toString()).isNotNull();
        assertThat(changed.get("is_error").asBoolean()).isTrue();
        assertThat(changed.get("description").asString())
                .contains("/growing/log.bin", first.length + " bytes", now.length + " bytes");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(1);
        assertThat(task.get("bytes_transferred").asLong()).isEqualTo(now.length);
        assertThat(successfulTransfers(task).get(0).get("size").asLong()).isEqualTo(now.length);
    }

    /**
     * verify_checksum when the source's content differs from what arrived although its size and
     * time do not (the file item is a link the test points at another version of the same size and
     * time while each attempt is half sent, from the source sending 4 MiB/s; the first attempt is a
     * pipelined batch writing in place, the second moves the file on its own under its temporary
     * name): each attempt is a VERIFY_CHECKSUM fault of that file, sent again whole; after the last one
     * (the batch's, then {@code ferry.transfer.max-attempts} 2 on its own) the file and the task
     * fail with VERIFY_CHECKSUM naming both values, and nothing of it stands at the destination.
     */
    @Test
    void aChecksumThatDiffersOnEveryAttemptFailsTheTaskWithVerifyChecksumNamingBothValues() throws IOException {
        byte[] one = random(8 << 20, 81); // 2 s per attempt from crawl-a
        byte[] two = one.clone();
        two[0]++; // read first: a version swapped in after half is sent differs from what arrived
        Path dir = SITE_A.resolve("swapped");
        write(dir.resolve("one.bin"), one);
        write(dir.resolve("two.bin"), two);
        FileTime time = FileTime.from(Instant.parse("2020-02-03T04:05:06Z"));
        Files.setLastModifiedTime(dir.resolve("one.bin"), time);
        Files.setLastModifiedTime(dir.resolve("two.bin"), time);
        Path link = dir.resolve("data.bin");
        Files.createSymbolicLink(link, Path.of("one.bin"));
        Map<String, Object> transfer = transfer("/swapped/data.bin", "/swapped-copy/data.bin", false);
        transfer.put("source_endpoint", "admin#crawl-a");
        transfer.put("verify_checksum", true);
        transfer.put("checksum_algorithm", "SHA256");
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        Path part = SITE_B.resolve("swapped-copy/.data.bin.ferry-part");
        Path copy = SITE_B.resolve("swapped-copy/data.bin");
        long half = one.length / 2;
        boolean[] restarted = {true}; // the first attempt writes a new file
        long[] previous = {0};
        boolean[] ended = {false};
        int swaps = 0;
        for (String next = "two.bin"; ; next = next.equals("two.bin") ? "one.bin" : "two.bin") {
            // each attempt writes the file from its start again: wait until what the destination
            // holds shrinks, then until it passes half (or the task ends: no attempt is left)
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(20))
                    .alias("an attempt half sent, or the task's end")
                    .until(() -> {
                        long size = Math.max(sizeOf(part), sizeOf(copy));
                        restarted[0] |= size < previous[0];
                        previous[0] = size;
                        if (restarted[0] && size > half) {
                            return true;
                        }
                        ended[0] = !api.get("/v0.10/task/" + taskId)
                                .body()
                                .get("status")
                                .asString()
                                .equals("ACTIVE");
                        return ended[0];
                    });
            if (ended[0]) {
                break;
            }
            restarted[0] = false;
            Path swap = dir.resolve("data.bin.swap");
            Files.createSymbolicLink(swap, Path.of(next));
            Files.move(swap, link, StandardCopyOption.ATOMIC_MOVE);
            swaps++;
        }

        JsonNode task = runToEndOf(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("VERIFY_CHECKSUM");
        String hexOne = HexFormat.of().formatHex(sha256(one));
        String hexTwo = HexFormat.of().formatHex(sha256(two));
        assertThat(task.get("fatal_error").get("description").asString())
                .contains("/swapped-copy/data.bin", hexOne, hexTwo);
        assertThat(eventCodesOf(taskId)).contains("VERIFY_CHECKSUM").doesNotContain("SUCCEEDED");
        assertThat(task.get("faults").asLong())
                .as("one per attempt")
                .isEqualTo(swaps)
                .isGreaterThanOrEqualTo(2);
        assertThat(successfulTransfers(task).size()).isZero();
        try (Stream<Path> left = Files.list(SITE_B.resolve("swapped-copy"))) {
            assertThat(left.toList())
                    .as("nothing of a file that did not verify stands there")
                    .isEmpty();
        }
    }

    private JsonNode successfulTransfers(JsonNode task) {
        return api.get("/v0.10/task/" + task.get("task_id").asString() + "/successful_transfers")
                .body()
                .get("DATA");
    }

    private JsonNode runToEnd(Map<String, Object> transfer) {
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return runToEndOf(accepted.body().get("task_id").asString());
    }

    private JsonNode runToEndOf(String taskId) {
        return await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .alias("task " + taskId + " leaves ACTIVE")
                .until(
                        () -> api.get("/v0.10/task/" + taskId).body(),
                        task -> !task.get("status").asString().equals("ACTIVE"));
    }

    private List<String> eventCodes(JsonNode task) {
        return api.get("/v0.10/task/" + task.get("task_id").asString() + "/event_list")
                .body()
                .get("DATA")
                .findValuesAsString("code");
    }

    private static Map<String, Object> transfer(String sourcePath, String destinationPath, boolean recursive) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", "admin#site-a");
        doc.put("destination_endpoint", "admin#site-b");
        doc.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        recursive)));
        return doc;
    }

    private static void write(Path file, byte[] content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, content);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Relative path to content (directories map to "dir"). */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                String relative = root.relativize(path).toString();
                files.put(
                        relative,
                        Files.isDirectory(path) ? "dir" : HexFormat.of().formatHex(sha256(Files.readAllBytes(path))));
            }
        }
        return files;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
