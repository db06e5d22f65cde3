package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * One source to four destinations through the REST API (Ferry's extension {@code
 * ferry_additional_destination_endpoints}): five real ferry-gridftp processes (the source capped at
 * 4 MiB/s, the destinations with {@code --multicast} and no branch retries of their own, so that a
 * failed branch reaches the service as {@code 451 Multicast: ...}), the embedded ferry-server. A
 * leaf destination (d4, which d2 forwards to) is killed mid-file and started again on its port
 * once the task has a fault: the task shows each destination's own progress (d1-d3 hold the file,
 * d4 does not), retries the file only where it is missing (from d1's copy: d1 and d3, which hold
 * it, are not written again; d2, whose forwarding failed, may lack the rest of the file), ends
 * SUCCEEDED (checksums verified at every destination), and all four destinations hold the source's
 * bytes under the final name and its empty directory; the task list shows the destinations too. A
 * file that fails for good (a wrong {@code external_checksum}) leaves no temporary file at any
 * destination. A destination whose server does not forward is refused at submission and in a dry
 * run with a 400 naming the field; a dry run names the further destinations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MulticastServiceTest {

    private static final String FIELD = "ferry_additional_destination_endpoints";

    private final Launchers launchers = Launchers.fromBuild();
    private Path work;
    private Path sourceRoot;
    private FerryGridFtpProcess source;
    private final List<Path> roots = new ArrayList<>();
    private final List<FerryGridFtpProcess> destinations = new ArrayList<>();
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        work = dir;
        sourceRoot = Files.createDirectories(work.resolve("source"));
        source = FerryGridFtpProcess.start(
                launchers, sourceRoot, work.resolve("source.log"), 0, "--data-rate-limit", "4M");
        for (int i = 1; i <= 4; i++) {
            Path root = Files.createDirectories(work.resolve("d" + i));
            roots.add(root);
            destinations.add(startDestination(i, 0));
        }
        ferry = new FaultHarness(work, List.of("--ferry.transfer.retry-initial-backoff=500ms")).start();
        ferry.endpoint("admin#src", source.port());
        for (int i = 1; i <= 4; i++) {
            ferry.endpoint("admin#d" + i, destinations.get(i - 1).port());
        }
    }

    private FerryGridFtpProcess startDestination(int number, int port) throws Exception {
        return FerryGridFtpProcess.start(
                launchers,
                roots.get(number - 1),
                work.resolve("d" + number + "-" + System.nanoTime() + ".log"),
                port,
                "--multicast",
                "--multicast-retry",
                "0");
    }

    @AfterAll
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
        for (FerryGridFtpProcess process : destinations) {
            process.close();
        }
        if (source != null) {
            source.close();
        }
    }

    @Test
    void fourDestinationsOneKilledMidFileAllEndWithTheFile() throws Exception {
        byte[] data = new byte[32 << 20];
        new Random(32).nextBytes(data);
        Files.createDirectories(sourceRoot.resolve("run1/empty/deeper")); // made at every destination
        Files.write(sourceRoot.resolve("run1/x.h5"), data);
        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#d1", "/run1", "/run1");
        transfer.put(FIELD, List.of("admin#d2", "admin#d3", "admin#d4"));
        transfer.put("verify_checksum", true); // the CLI's default: CKSM at every destination
        String taskId = ferry.submit(transfer);

        Path leaf = roots.get(3).resolve("run1/x.h5");
        // the task document on the way: a failure shows the task, its events and the server's log
        ferry.await(taskId, t -> FaultHarness.arrived(leaf) > (4 << 20), FaultHarness.END);
        int port = destinations.get(3).port();
        destinations.get(3).kill();
        JsonNode faulted = ferry.await(taskId, t -> t.get("faults").asLong() > 0, FaultHarness.END);
        assertThat(faulted.get("status").asString())
                .as("a destination short of the file: the task must not end")
                .isEqualTo("ACTIVE");
        // d1 answered 451 with the whole file written at d1 and at d3 (its other branch): a retry
        // must not write them again (d2, whose subtree failed, stopped getting windows from d1)
        List<FileTime> written = new ArrayList<>();
        JsonNode split;
        try {
            for (Path root : List.of(roots.get(0), roots.get(2))) {
                written.add(Files.getLastModifiedTime(FaultHarness.partial(root.resolve("run1/x.h5"))));
            }
            // each destination's own progress while d4 is down: d1 holds the file (checked), d4 not
            split = ferry.await(taskId, MulticastServiceTest::firstHoldsLeafDoesNot, Duration.ofSeconds(60));
        } finally {
            destinations.set(3, startDestination(4, port)); // the other cases need d4 too
        }
        JsonNode perDestination = split.get("ferry_destinations");
        assertThat(perDestination.get(0).get("bytes_transferred").asLong()).isEqualTo(data.length);
        assertThat(perDestination.get(3).get("bytes_transferred").asLong()).isLessThan(data.length);

        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(1);
        JsonNode ended = task.get("ferry_destinations");
        assertThat(ended.findValuesAsString("display_name")).containsExactly("d1", "d2", "d3", "d4");
        assertThat(ended.findValues("files_transferred"))
                .allSatisfy(n -> assertThat(n.asLong()).isEqualTo(1));
        assertThat(ended.findValues("bytes_transferred"))
                .allSatisfy(n -> assertThat(n.asLong()).isEqualTo(data.length));
        for (Path root : roots) {
            assertThat(Files.readAllBytes(root.resolve("run1/x.h5")))
                    .as(root + " holds the source's bytes")
                    .isEqualTo(data);
            try (Stream<Path> left = Files.list(root.resolve("run1"))) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("no temporary file left at " + root)
                        .containsExactlyInAnyOrder("x.h5", "empty");
            }
            assertThat(root.resolve("run1/empty/deeper"))
                    .as("the empty directory at " + root)
                    .isDirectory();
        }
        for (int i = 0; i < 2; i++) {
            int d = i == 0 ? 1 : 3;
            assertThat(Files.getLastModifiedTime(roots.get(d - 1).resolve("run1/x.h5")))
                    .as("d" + d + " held the file: the retry went only where it was missing")
                    .isEqualTo(written.get(i));
        }
        JsonNode listed = ferry.api().get("/v0.10/task_list?limit=100");
        JsonNode entry = null;
        for (JsonNode each : listed.get("DATA")) {
            if (each.get("task_id").asString().equals(taskId)) {
                entry = each;
            }
        }
        assertThat(entry).as("the task in task_list").isNotNull();
        assertThat(entry.get("ferry_destinations").findValuesAsString("display_name"))
                .containsExactly("d1", "d2", "d3", "d4");
        JsonNode events = ferry.api().get("/v0.10/task/" + taskId + "/event_list?limit=1000");
        assertThat(events.toString()).as("the fault names the failed branch").contains("Multicast");
    }

    /** @return whether d1 holds the file in flight whole (checked there) and d4 does not */
    private static boolean firstHoldsLeafDoesNot(JsonNode task) {
        JsonNode listed = task.path("ferry_destinations");
        return listed.path(0).path("files_transferred").asLong() == 1
                && listed.path(3).path("files_transferred").asLong() == 0;
    }

    @Test
    void aFileThatFailsForGoodLeavesNoTemporaryFileAtAnyDestination() throws Exception {
        byte[] data = new byte[1 << 20];
        new Random(33).nextBytes(data);
        Files.createDirectories(sourceRoot.resolve("bad"));
        Files.write(sourceRoot.resolve("bad/y.bin"), data);
        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#d1", "/bad", "/bad");
        transfer.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        "/bad/y.bin",
                        "destination_path",
                        "/bad/y.bin",
                        "external_checksum",
                        "0123456789abcdef0123456789abcdef")));
        transfer.put(FIELD, List.of("admin#d2", "admin#d3", "admin#d4"));
        String taskId = ferry.submit(transfer);

        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        for (Path root : roots) {
            try (Stream<Path> left = Files.list(root.resolve("bad"))) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("nothing of the failed file left at " + root)
                        .isEmpty();
            }
        }
    }

    @Test
    void aDestinationThatDoesNotForwardIsRefusedByName() throws Exception {
        // the source's server runs without --multicast: as a destination it cannot forward
        Map<String, Object> transfer = new HashMap<>(FaultHarness.recursive("admin#d1", "admin#src", "/none", "/none"));
        transfer.put(FIELD, List.of("admin#d2"));
        for (String path : List.of("/v0.10/transfer", "/v0.10/transfer/dry_run")) {
            Throwable refused = Assertions.catchThrowable(() -> ferry.api().post(path, transfer));
            assertThat(refused).as(path).isInstanceOf(IOException.class);
            assertThat(refused.getMessage()).as(path).startsWith("400 ");
            JsonNode error = new tools.jackson.databind.ObjectMapper()
                    .readTree(refused.getMessage().substring(4));
            assertThat(error.get("field").asString()).isEqualTo(FIELD);
            assertThat(error.get("message").asString()).contains("does not forward");
        }

        // a dry run that can go names every destination
        Files.createDirectories(sourceRoot.resolve("dry"));
        Files.write(sourceRoot.resolve("dry/z"), new byte[10]);
        Map<String, Object> good = FaultHarness.recursive("admin#src", "admin#d1", "/dry", "/dry");
        good.put(FIELD, List.of("admin#d2", "admin#d3"));
        JsonNode dryRun = ferry.api().post("/v0.10/transfer/dry_run", good);
        assertThat(dryRun.get("files_to_copy").asLong()).isEqualTo(1);
        List<String> named = new ArrayList<>();
        dryRun.get(FIELD).forEach(n -> named.add(n.asString()));
        assertThat(named).containsExactly("admin#d2", "admin#d3");
    }
}
