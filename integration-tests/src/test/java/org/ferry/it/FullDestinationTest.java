package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A destination that runs out of space (issue 35, item 4), on a real small file system: each
 * destination is a ferry-gridftp process serving a tmpfs mounted in a mount namespace of its own
 * ({@code unshare -m}; root only, as CI runs), the source a Ferry GridFTP server in this JVM, the
 * embedded ferry-server as a process. A task that fills the disk mid-file waits (ACTIVE,
 * {@code nice_status} NO_SPACE_LEFT) and goes on by itself once the file system is grown; no
 * partial file ever stands under its final name meanwhile. With {@code fail_on_quota_errors} a file
 * that cannot fit fails the task at once, refused by ALLO before a byte was written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FullDestinationTest {

    private static final int MIB = 1 << 20;

    private final Launchers launchers = Launchers.fromBuild();
    private Path work;
    private Path sourceRoot;
    private GridFtpServer source;
    private FaultHarness ferry;
    private final List<FerryGridFtpProcess> destinations = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        this.work = work;
        sourceRoot = Files.createDirectories(work.resolve("source"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot).withAnonymousAllowed(true));
        ferry = new FaultHarness(
                        work,
                        List.of(
                                "--ferry.transfer.retry-initial-backoff=500ms",
                                "--ferry.transfer.retry-max-backoff=2s"))
                .start();
        ferry.endpoint("admin#src", source.port());
    }

    @AfterAll
    void stop() throws Exception {
        for (FerryGridFtpProcess destination : destinations) {
            destination.close();
        }
        if (ferry != null) {
            ferry.close();
        }
        if (source != null) {
            source.close();
        }
    }

    @Test
    void aFullDestinationWaitsAndGoesOnWhenSpaceIsFreed() throws Exception {
        Path files = writeSource("fill", 3, 70);
        Path mount = Files.createDirectories(work.resolve("full-mount"));
        FerryGridFtpProcess destination = destination("full", mount, "100m");
        ferry.endpoint("admin#full", destination.port());

        // two lanes (concurrency 2) each pass ALLO (100 MiB free for 70) and then fill the disk together
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#full", "/fill", "/fill"));
        JsonNode waiting = ferry.await(
                taskId, t -> "NO_SPACE_LEFT".equals(t.get("nice_status").asString()), FaultHarness.END);
        assertThat(waiting.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(ferry.events(taskId)).contains("NO_SPACE_LEFT");
        Path copy = destination.view(mount).resolve("fill");
        assertNoPartialUnderItsName(files, copy);

        destination.resize(mount, "400m");
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(3);
        FaultHarness.assertIdentical(files, copy); // no temporary file left either
    }

    @Test
    void failOnQuotaErrorsFailsAtOnceAndAlloKeepsTheDiskUntouched() throws Exception {
        Path files = writeSource("big", 1, 80);
        Path mount = Files.createDirectories(work.resolve("small-mount"));
        FerryGridFtpProcess destination = destination("small", mount, "50m");
        ferry.endpoint("admin#small", destination.port());

        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#small", "/big", "/big");
        transfer.put("fail_on_quota_errors", true);
        String taskId = ferry.submit(transfer);
        assertThat(ferry.task(taskId).get("fail_on_quota_errors").asBoolean()).isTrue();
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("NO_SPACE_LEFT");
        assertThat(task.get("fatal_error").get("description").asString())
                .contains("ALLO")
                .contains("552");
        assertThat(ferry.events(taskId)).containsOnlyOnce("NO_SPACE_LEFT");
        // ALLO refused the file before STOR: not a byte of it was written, under any name
        try (Stream<Path> left = Files.list(destination.view(mount).resolve("big"))) {
            assertThat(left.toList()).isEmpty();
        }
        assertThat(Files.exists(files.resolve("f0"))).isTrue();
    }

    /** Every file of the copy that bears a source file's name has that file's bytes. */
    private static void assertNoPartialUnderItsName(Path files, Path copy) throws IOException {
        try (Stream<Path> there = Files.list(copy)) {
            for (Path file : there.toList()) {
                Path original = files.resolve(file.getFileName().toString());
                if (Files.exists(original)) {
                    assertThat(Files.mismatch(original, file))
                            .as(file + " stands under its final name while the disk is full")
                            .isEqualTo(-1L);
                }
            }
        }
    }

    private FerryGridFtpProcess destination(String name, Path mount, String size) throws Exception {
        FerryGridFtpProcess destination =
                FerryGridFtpProcess.startOnTmpfs(launchers, mount, work.resolve(name + "-gridftp.log"), size);
        destinations.add(destination);
        return destination;
    }

    /** @return a source directory of {@code count} files of random bytes, {@code mib} MiB each */
    private Path writeSource(String name, int count, int mib) throws IOException {
        Path directory = Files.createDirectories(sourceRoot.resolve(name));
        Random random = new Random(name.hashCode());
        byte[] data = new byte[mib * MIB];
        for (int i = 0; i < count; i++) {
            random.nextBytes(data);
            Files.write(directory.resolve("f" + i), data);
        }
        return directory;
    }
}
