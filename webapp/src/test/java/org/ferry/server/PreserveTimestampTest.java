package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code preserve_timestamp} end to end: the whole service over real HTTP (H2 in a temporary
 * FERRY_HOME) moves a tree between two real Ferry GridFTP servers. The tree holds 150 small files
 * in one directory (more than 100 averaging under 50 MB: pipelined batches, which between Ferry
 * servers travel as ERET/ESTO TAR streams whose entries carry the time of archiving), a few in a
 * nested directory, an empty file and a 20 MiB file (above the batch limit: moved on its own),
 * each with its own old modification time. With the flag every destination file ends with its
 * source's time, to the second; without it the times are those of the writes; sync level
 * {@code mtime} then finds the preserved copy current.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PreserveTimestampTest {

    private static final Path HOME = TestHomes.create("ferry-preserve-home");
    private static final Instant OLDEST = Instant.parse("2002-03-04T05:06:07Z");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.max-attempts", () -> "2");
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
    }

    @LocalServerPort
    int port;

    private ApiClient api;
    private Path siteA;
    private Path siteB;
    private TestGridFtp serverA;
    private TestGridFtp serverB;

    @BeforeAll
    void start() throws IOException {
        siteA = Files.createDirectories(HOME.resolve("site-a"));
        siteB = Files.createDirectories(HOME.resolve("site-b"));
        serverA = TestGridFtp.serve(siteA);
        serverB = TestGridFtp.serve(siteB);
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        for (Map.Entry<String, TestGridFtp> site :
                Map.of("admin#pa", serverA, "admin#pb", serverB).entrySet()) {
            assertThat(api.post(
                                    "/v0.10/endpoint",
                                    Map.of(
                                            "canonical_name",
                                            site.getKey(),
                                            "url",
                                            site.getValue().url()))
                            .status())
                    .isEqualTo(201);
        }
    }

    @AfterAll
    void stop() {
        serverA.close();
        serverB.close();
    }

    @Test
    void everyFileEndsWithItsSourceTimeAndSyncByMtimeFindsItCurrent() throws Exception {
        Path tree = siteA.resolve("tree");
        Random random = new Random(14);
        int index = 0;
        for (int i = 0; i < 150; i++) {
            write(tree.resolve("many/m" + i + ".dat"), random(1 + random.nextInt(20_000), random), index++);
        }
        for (int i = 0; i < 3; i++) {
            write(tree.resolve("sub/deep/d" + i + ".txt"), ("deep " + i + "\n").getBytes(), index++);
        }
        write(tree.resolve("sub/empty"), new byte[0], index++);
        write(tree.resolve("big.bin"), random(20 << 20, random), index++);
        // a time with a fraction: MFMT sets whole seconds, and sync by mtime must not take the
        // fraction for a newer source
        Files.setLastModifiedTime(
                tree.resolve("sub/deep/d1.txt"),
                FileTime.from(OLDEST.plus(Duration.ofDays(900)).plusMillis(750)));
        Map<String, Instant> sourceTimes = times(tree);
        assertThat(sourceTimes).hasSize(155);
        assertThat(sourceTimes.values().stream().distinct()).hasSize(155);

        Instant beforeWrites = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
        JsonNode preserved = run(transfer("/tree", "/kept", true, null));
        assertThat(preserved.get("preserve_timestamp").asBoolean()).isTrue();
        assertThat(preserved.get("files_transferred").asLong()).isEqualTo(155);
        assertThat(contents(siteB.resolve("kept"))).isEqualTo(contents(tree));
        Map<String, Instant> keptTimes = times(siteB.resolve("kept"));
        sourceTimes.forEach((file, time) ->
                assertThat(keptTimes.get(file)).as(file).isEqualTo(time.truncatedTo(ChronoUnit.SECONDS)));

        JsonNode plain = run(transfer("/tree", "/plain", false, null));
        assertThat(plain.get("preserve_timestamp").asBoolean()).isFalse();
        assertThat(contents(siteB.resolve("plain"))).isEqualTo(contents(tree));
        times(siteB.resolve("plain"))
                .forEach((file, time) -> assertThat(time)
                        .as(file + " without preserve_timestamp")
                        .isAfterOrEqualTo(beforeWrites));

        // sync level mtime: the preserved copy is current, file by file
        JsonNode synced = run(transfer("/tree", "/kept", true, "mtime"));
        assertThat(synced.get("files_skipped").asLong()).isEqualTo(155);
        assertThat(synced.get("files_transferred").asLong()).isZero();
        // a source file changed later is newer: copied again, its new time preserved
        Instant later = OLDEST.plus(Duration.ofDays(4000));
        Files.write(tree.resolve("many/m7.dat"), "changed".getBytes());
        Files.setLastModifiedTime(tree.resolve("many/m7.dat"), FileTime.from(later));
        JsonNode resynced = run(transfer("/tree", "/kept", true, "mtime"));
        assertThat(resynced.get("files_transferred").asLong()).isEqualTo(1);
        assertThat(resynced.get("files_skipped").asLong()).isEqualTo(154);
        assertThat(Files.readString(siteB.resolve("kept/many/m7.dat"))).isEqualTo("changed");
        assertThat(Files.getLastModifiedTime(siteB.resolve("kept/many/m7.dat")).toInstant())
                .isEqualTo(later);
    }

    /** Submits and waits; the task must succeed without faults. */
    private JsonNode run(Map<String, Object> transfer) throws InterruptedException {
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString())
                .as(task + "\n"
                        + api.get("/v0.10/task/" + taskId + "/event_list").body())
                .isEqualTo("SUCCEEDED");
        assertThat(task.get("faults").asLong()).as("faults").isZero();
        return task;
    }

    private static Map<String, Object> transfer(
            String sourcePath, String destinationPath, boolean preserve, String syncLevel) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", "admin#pa");
        doc.put("destination_endpoint", "admin#pb");
        doc.put("preserve_timestamp", preserve);
        if (syncLevel != null) {
            doc.put("sync_level", syncLevel);
        }
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
                        true)));
        return doc;
    }

    /** Writes a file whose modification time is the {@code index}-th of the tree's distinct old times. */
    private static void write(Path file, byte[] content, int index) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        Files.setLastModifiedTime(
                file, FileTime.from(OLDEST.plus(Duration.ofDays(index).plusSeconds(index))));
    }

    private static byte[] random(int size, Random random) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** @return relative path to modification time of every regular file under {@code root} */
    private static Map<String, Instant> times(Path root) throws IOException {
        Map<String, Instant> times = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                times.put(
                        root.relativize(path).toString(),
                        Files.getLastModifiedTime(path).toInstant());
            }
        }
        return times;
    }

    /** @return relative path to content digest of every regular file under {@code root} */
    private static Map<String, String> contents(Path root) throws Exception {
        Map<String, String> digests = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                digests.put(
                        root.relativize(path).toString(),
                        java.util.HexFormat.of()
                                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                        .digest(Files.readAllBytes(path))));
            }
        }
        return digests;
    }
}
