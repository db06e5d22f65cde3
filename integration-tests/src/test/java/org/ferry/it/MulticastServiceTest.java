package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
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
 * once the task has a fault: the task retries the file, ends SUCCEEDED (checksums verified at
 * every destination), and all four destinations hold the source's bytes under the final name. A destination whose server does not forward is
 * refused at submission with a 400 naming the field.
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
        Files.createDirectories(sourceRoot.resolve("run1"));
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
        destinations.set(3, startDestination(4, port));

        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(1);
        JsonNode listed = task.get("ferry_destinations");
        assertThat(listed.findValuesAsString("display_name")).containsExactly("d1", "d2", "d3", "d4");
        assertThat(listed.findValues("files_transferred"))
                .allSatisfy(n -> assertThat(n.asLong()).isEqualTo(1));
        assertThat(listed.findValues("bytes_transferred"))
                .allSatisfy(n -> assertThat(n.asLong()).isEqualTo(data.length));
        for (Path root : roots) {
            assertThat(Files.readAllBytes(root.resolve("run1/x.h5")))
                    .as(root + " holds the source's bytes")
                    .isEqualTo(data);
            try (Stream<Path> left = Files.list(root.resolve("run1"))) {
                assertThat(left.map(p -> p.getFileName().toString()))
                        .as("no temporary file left at " + root)
                        .containsExactly("x.h5");
            }
        }
        JsonNode events = ferry.api().get("/v0.10/task/" + taskId + "/event_list?limit=1000");
        assertThat(events.toString()).as("the fault names the failed branch").contains("Multicast");
    }

    @Test
    void aDestinationThatDoesNotForwardIsRefusedByName() throws Exception {
        // the source's server runs without --multicast: as a destination it cannot forward
        Map<String, Object> transfer = new HashMap<>(FaultHarness.recursive("admin#d1", "admin#src", "/none", "/none"));
        transfer.put(FIELD, List.of("admin#d2"));
        Throwable refused =
                org.assertj.core.api.Assertions.catchThrowable(() -> ferry.api().post("/v0.10/transfer", transfer));
        assertThat(refused).isInstanceOf(java.io.IOException.class);
        assertThat(refused.getMessage()).startsWith("400 ");
        JsonNode error = new tools.jackson.databind.ObjectMapper()
                .readTree(refused.getMessage().substring(4));
        assertThat(error.get("field").asString()).isEqualTo(FIELD);
        assertThat(error.get("message").asString()).contains("does not forward");
    }
}
