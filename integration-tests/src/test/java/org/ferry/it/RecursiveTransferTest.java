package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The walking skeleton end to end, as a user drives it: two {@code ferry-gridftp} servers on
 * loopback, {@code ferry-server}, and the {@code ferry} CLI, all real processes. A recursive
 * transfer of (a) a generated tree (nested and empty directories, empty files, names with spaces
 * and UTF-8, 2,000 small files, one 256 MiB file) and (b) a copy of a real system tree
 * ({@code /usr/share/doc}) must arrive byte-identical, and the task must end SUCCEEDED with
 * STARTED and SUCCEEDED events.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecursiveTransferTest {

    private static final Pattern TASK_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final long LARGE_FILE_BYTES = 256L << 20;

    /** Shared by all tests of the class: servers' roots, logs, downloads. */
    private Path work;

    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path sourceRoot;
    private Path destinationRoot;
    private FerryServerProcess server;
    private CliRunner cli;

    @BeforeAll
    void startServersAndRegisterEndpoints(@TempDir Path classWork) throws Exception {
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        sourceRoot = Files.createDirectories(work.resolve("source-root"));
        destinationRoot = Files.createDirectories(work.resolve("destination-root"));
        FerryGridFtpProcess source =
                started(FerryGridFtpProcess.start(launchers, sourceRoot, work.resolve("source.log")));
        FerryGridFtpProcess destination =
                started(FerryGridFtpProcess.start(launchers, destinationRoot, work.resolve("destination.log")));
        server = started(FerryServerProcess.start(
                launchers, Files.createDirectories(work.resolve("home")), work.resolve("server.log")));
        cli = new CliRunner(launchers, server, work);
        expectSuccess(cli.run(60, "endpoint", "add", "admin#src", "--url", source.url()));
        expectSuccess(cli.run(60, "endpoint", "add", "admin#dst", "--url", destination.url()));
        assertThat(expectSuccess(cli.run(60, "endpoint", "list")).stdout()).contains("admin#src", "admin#dst");
    }

    private <T extends AutoCloseable> T started(T process) {
        processes.add(0, process);
        return process;
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable process : processes) {
            process.close();
        }
    }

    @Test
    void generatedTreeArrivesByteIdentical() throws Exception {
        TestTrees.generate(sourceRoot.resolve("generated"), 2000, LARGE_FILE_BYTES, 20261122L);
        transferAndVerify("/generated", "/copies/generated");
        assertThat(Files.size(destinationRoot.resolve("copies/generated/large/large file.bin")))
                .isEqualTo(LARGE_FILE_BYTES);
        assertThat(destinationRoot.resolve("copies/generated/empty dir")).isEmptyDirectory();
        String listing =
                expectSuccess(cli.run(60, "ls", "admin#dst:/copies/generated")).stdout();
        assertThat(listing).contains("empty dir", "empty file", "données été", "large", "small");
    }

    @Test
    void realSystemTreeArrivesByteIdentical() throws Exception {
        Path doc = Path.of("/usr/share/doc");
        int files = TestTrees.copyRealTree(doc, sourceRoot.resolve("doc"));
        assertThat(files).as("files copied from " + doc).isGreaterThan(50);
        transferAndVerify("/doc", "/doc-copy");
    }

    private void transferAndVerify(String sourcePath, String destinationPath) throws Exception {
        CliRunner.Result submitted = expectSuccess(cli.run(
                60,
                "transfer",
                // the test compares the bytes itself, as it did before ferry transfer verified by default
                "--no-verify-checksum",
                "admin#src:" + sourcePath,
                "admin#dst:" + destinationPath,
                "--recursive",
                "--label",
                "it " + sourcePath.substring(1)));
        Matcher id = TASK_ID.matcher(submitted.stdout());
        assertThat(id.find()).as("task id in: " + submitted.describe()).isTrue();
        String taskId = id.group();

        CliRunner.Result waited = cli.run(1800, "wait", taskId);
        assertThat(waited.exitCode())
                .as("ferry wait: " + waited.describe() + "\nserver log:\n" + server.output())
                .isZero();

        JsonNode task = json.readTree(
                expectSuccess(cli.run(60, "-F", "json", "status", taskId)).stdout());
        assertThat(task.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.path("task_id").asString()).isEqualTo(taskId);

        JsonNode events = json.readTree(
                expectSuccess(cli.run(60, "-F", "json", "events", taskId)).stdout());
        List<String> codes = new ArrayList<>();
        events.path("DATA").forEach(event -> codes.add(event.path("code").asString()));
        assertThat(codes).contains("STARTED", "SUCCEEDED");

        Map<String, String> expected = TreeDigest.of(sourceRoot.resolve(sourcePath.substring(1)));
        Map<String, String> actual = TreeDigest.of(destinationRoot.resolve(destinationPath.substring(1)));
        assertThat(actual).hasSameSizeAs(expected).isEqualTo(expected);
        assertThat(task.path("files_transferred").asLong())
                .isEqualTo(
                        expected.values().stream().filter(v -> !v.equals("dir")).count());
    }

    private static CliRunner.Result expectSuccess(CliRunner.Result result) throws IOException {
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result;
    }
}
