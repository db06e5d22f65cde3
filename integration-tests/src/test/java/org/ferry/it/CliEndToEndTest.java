package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.ferry.cli.CliEnvironment;
import org.ferry.cli.FerryCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every command of the {@code ferry} CLI against a real ferry-server process and two real
 * ferry-gridftp endpoints: endpoints, file operations, transfer (batch, recursion detection,
 * refused options, preserved modification times), scp, rm and delete, wait, events, details, status,
 * deadline, cancel, login, whoami, logout, tokens, users, timers (a start and an end date, pause
 * and resume of a live one), in the three output formats, with their exit codes. The CLI
 * runs in this JVM through {@link FerryCli#run} (the same code {@code bin/ferry} runs) over an
 * environment of its own, so that the many runs cost no JVM start each.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliEndToEndTest {

    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path work;
    private Path rootA;
    private Path rootB;
    private Path rootSlow;
    private FerryServerProcess server;

    record Run(int exitCode, String out, String err) {
        String describe() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        rootA = Files.createDirectories(work.resolve("a"));
        rootB = Files.createDirectories(work.resolve("b"));
        rootSlow = Files.createDirectories(work.resolve("slow"));
        FerryGridFtpProcess a = started(FerryGridFtpProcess.start(launchers, rootA, work.resolve("a.log")));
        FerryGridFtpProcess b = started(FerryGridFtpProcess.start(launchers, rootB, work.resolve("b.log")));
        // a server capped at 64 KiB/s keeps a transfer ACTIVE for as long as a test needs it
        FerryGridFtpProcess slow = started(FerryGridFtpProcess.start(
                launchers, rootSlow, work.resolve("slow.log"), 0, "--data-rate-limit", "64K"));
        server = started(FerryServerProcess.start(
                launchers, Files.createDirectories(work.resolve("server-home")), work.resolve("server.log")));
        ok(admin("endpoint", "add", "admin#a", "--url", a.url(), "--description", "site A"));
        ok(admin("endpoint", "add", "admin#b", "--url", b.url()));
        ok(admin("endpoint", "add", "admin#slow", "--url", slow.url()));
    }

    private <T extends AutoCloseable> T started(T process) {
        processes.add(process);
        return process;
    }

    @AfterAll
    void stop() throws Exception {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
    }

    private Run ferry(Path home, String stdin, String... args) {
        Map<String, String> env = new HashMap<>();
        env.put("FERRY_API", server.apiUrl());
        env.put("FERRY_HOME", home.toString());
        env.put("CI", "true");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = FerryCli.run(
                new CliEnvironment(env, work, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), false),
                out,
                err,
                args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run admin(String... args) {
        return ferry(server.ferryHome(), "", args);
    }

    private static Run ok(Run run) {
        assertThat(run.exitCode()).as(run.describe()).isZero();
        return run;
    }

    private static JsonNode json(Run run) {
        return JsonMapper.builder().build().readTree(ok(run).out());
    }

    /** An endpoint's server list through the CLI: add a second server, list, change, remove. */
    @Test
    void endpointServers() throws Exception {
        String url = json(admin("endpoint", "show", "admin#b", "-F", "json"))
                .get("url")
                .asString();
        String other = url.replace("127.0.0.1", "localhost"); // the same server under a second name
        String id = ok(admin("-F", "unix", "endpoint", "server", "add", "admin#b", "--url", other))
                .out()
                .strip();
        assertThat(id).matches("[0-9]+");
        assertThat(ok(admin("endpoint", "server", "list", "admin#b")).out()).contains(url, other);
        ok(admin("endpoint", "server", "update", "admin#b", id, "--subject", "/O=Grid/CN=host/localhost"));
        assertThat(ok(admin("-F", "unix", "endpoint", "server", "list", "admin#b"))
                        .out())
                .contains(other + "\t/O=Grid/CN=host/localhost");
        assertThat(ok(admin("ls", "admin#b:/")).exitCode()).isZero();
        ok(admin("endpoint", "server", "remove", "admin#b", id));
        String first = json(admin("endpoint", "server", "list", "admin#b", "-F", "json"))
                .get("DATA")
                .get(0)
                .get("id")
                .asString();
        Run last = admin("endpoint", "server", "remove", "admin#b", first);
        assertThat(last.exitCode()).isEqualTo(1);
        assertThat(last.err()).contains("is the last of admin#b");
    }

    @Test
    void endpointsAndFileOperations() throws Exception {
        Files.createDirectories(rootA.resolve("ops"));
        Files.writeString(rootA.resolve("ops/one.txt"), "1");
        Files.writeString(rootA.resolve("ops/.hidden"), "h");

        assertThat(ok(admin("-F", "unix", "endpoint", "list")).out()).contains("admin#a\t", "admin#b\t");
        assertThat(json(admin("endpoint", "show", "admin#a", "-F", "json"))
                        .get("description")
                        .asString())
                .isEqualTo("site A");
        ok(admin("endpoint", "update", "admin#a", "--description", "site A, lab 3"));
        assertThat(ok(admin("endpoint", "show", "admin#a")).out()).contains("Description:", "site A, lab 3");
        assertThat(ok(admin("endpoint", "activate", "admin#a")).out()).contains("needs no activation");
        Run deactivate = admin("endpoint", "deactivate", "admin#a");
        assertThat(deactivate.exitCode()).isEqualTo(1);
        assertThat(deactivate.err()).contains("holds no activation credential");

        assertThat(ok(admin("ls", "admin#a:/ops")).out()).isEqualTo("one.txt\n");
        assertThat(ok(admin("ls", "admin#a:/ops", "-a")).out()).contains(".hidden", "one.txt");
        ok(admin("mkdir", "admin#a:/ops/sub"));
        assertThat(Files.isDirectory(rootA.resolve("ops/sub"))).isTrue();
        Run again = admin("mkdir", "admin#a:/ops/sub");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("ExternalError.MkdirFailed.Exists");
        ok(admin("rename", "admin#a:/ops/one.txt", "/ops/sub/uno.txt"));
        assertThat(Files.readString(rootA.resolve("ops/sub/uno.txt"))).isEqualTo("1");
        assertThat(ok(admin("stat", "admin#a:/ops/sub/uno.txt")).out()).contains("Type:", "file", "Size:");
        assertThat(ok(admin("ls", "admin#a:/ops", "-l")).out()).contains("Permissions", "sub");
        assertThat(ok(admin("ls", "admin#a:/ops/sub", "--filter", "*.txt", "-F", "unix"))
                        .out())
                .isEqualTo("uno.txt\n");
        Run missing = admin("ls", "admin#a:/nope");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("Error: ClientError.NotFound");

        ok(admin("endpoint", "add", "admin#gone", "--url", "ftp://127.0.0.1:1"));
        assertThat(ok(admin("-F", "unix", "endpoint", "remove", "admin#gone")).out())
                .isEqualTo("Deleted\n");
    }

    @Test
    void transferWaitEventsDetailsAndStatus() throws Exception {
        TestTrees.generate(rootA.resolve("tree"), 30, 0, 7);
        // no -r: the CLI asks the endpoint and finds a directory
        String taskId = ok(admin(
                        "-F", "unix", "transfer", "admin#a:/tree", "admin#b:/tree-copy", "--label", "cli tree"))
                .out()
                .trim();
        Run waited = ok(admin("wait", taskId, "--polling-interval", "0.2"));
        assertThat(waited.out()).startsWith("Task " + taskId + " SUCCEEDED");
        assertThat(TreeDigest.of(rootB.resolve("tree-copy"))).isEqualTo(TreeDigest.of(rootA.resolve("tree")));

        assertThat(ok(admin("events", taskId)).out()).contains("STARTED", "SUCCEEDED");
        Run details = ok(admin("details", taskId, "-t"));
        assertThat(details.out()).contains("/tree-copy/");
        assertThat(ok(admin("details", taskId)).out()).contains("Label:", "cli tree", "Verify Checksum:", "true");
        assertThat(ok(admin("status", "-F", "unix")).out()).contains(taskId);
        assertThat(json(admin("-F", "json", "status", taskId)).get("status").asString())
                .isEqualTo("SUCCEEDED");
        assertThat(ok(admin("details", taskId, "--skipped-errors")).out()).contains("Source Path");
    }

    /** {@code transfer --wait}: submit and wait in one run, with wait's output and exit codes. */
    @Test
    void transferWaitSubmitsAndWaitsInOneRun() throws Exception {
        TestTrees.generate(rootA.resolve("wait-tree"), 12, 0, 11);
        Run waited = ok(
                admin("transfer", "admin#a:/wait-tree", "admin#b:/wait-copy", "--wait", "--polling-interval", "0.2"));
        String taskId = waited.out()
                .lines()
                .filter(line -> line.startsWith("Task ID: "))
                .findFirst()
                .orElseThrow()
                .substring("Task ID: ".length());
        assertThat(waited.out()).contains("Task " + taskId + " SUCCEEDED: ");
        assertThat(TreeDigest.of(rootB.resolve("wait-copy"))).isEqualTo(TreeDigest.of(rootA.resolve("wait-tree")));

        // json: one document, the ended task's
        JsonNode task = json(admin(
                "-F",
                "json",
                "transfer",
                "admin#a:/wait-tree",
                "admin#b:/wait-copy-2",
                "--wait",
                "--polling-interval",
                "0.2"));
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("task_id").asString()).isNotEqualTo(taskId);
        assertThat(TreeDigest.of(rootB.resolve("wait-copy-2"))).isEqualTo(TreeDigest.of(rootA.resolve("wait-tree")));

        // a task still running when --timeout passes: the timeout exit code, then cancelled it ends FAILED
        Files.write(rootSlow.resolve("wait-big.bin"), new byte[1 << 20]);
        Run timedOut = admin(
                "-F",
                "unix",
                "transfer",
                "admin#slow:/wait-big.bin",
                "admin#b:/wait-big.bin",
                "--wait",
                "--timeout",
                "0.5",
                "--timeout-exit-code",
                "50");
        assertThat(timedOut.exitCode()).as(timedOut.describe()).isEqualTo(50);
        assertThat(timedOut.err()).contains("Timed out after 0.5 s");
        String slowTask = timedOut.out().trim();
        ok(admin("cancel", slowTask));
        assertThat(admin("wait", slowTask).exitCode()).isEqualTo(1);

        Run misplaced = admin("transfer", "admin#a:/wait-tree", "admin#b:/x", "--timeout", "5");
        assertThat(misplaced.exitCode()).isEqualTo(2);
        assertThat(misplaced.err()).contains("go with --wait");
    }

    @Test
    void batchTransfersTakePrefixesAndPerLineRecursion() throws Exception {
        Files.createDirectories(rootA.resolve("batch/dir"));
        Files.writeString(rootA.resolve("batch/file one.txt"), "one");
        Files.writeString(rootA.resolve("batch/dir/two.txt"), "two");
        Path batch = Files.writeString(
                work.resolve("batch.txt"),
                "# source destination\n'file one.txt' copied.txt\n\n--recursive dir dir-copy\n");
        String taskId = ok(admin(
                        "-F", "unix", "transfer", "admin#a:/batch", "admin#b:/batch-out", "--batch", batch.toString()))
                .out()
                .trim();
        ok(admin("wait", taskId, "--polling-interval", "0.2"));
        assertThat(Files.readString(rootB.resolve("batch-out/copied.txt"))).isEqualTo("one");
        assertThat(Files.readString(rootB.resolve("batch-out/dir-copy/two.txt")))
                .isEqualTo("two");

        Run stdinBatch = ferry(
                server.ferryHome(),
                "/batch/dir/two.txt /stdin/two.txt\n",
                "transfer",
                "admin#a",
                "admin#b",
                "--batch",
                "-",
                "--dry-run");
        // the server plans the dry run: the file would be copied, and nothing is written
        assertThat(ok(stdinBatch).out())
                .contains("copy", "/batch/dir/two.txt", "/stdin/two.txt", "Dry run: nothing was changed.");
        assertThat(rootB.resolve("stdin")).doesNotExist();
        Run document = ferry(
                server.ferryHome(),
                "/batch/dir/two.txt /stdin/two.txt\n",
                "transfer",
                "admin#a",
                "admin#b",
                "--batch",
                "-",
                "--print-document");
        assertThat(ok(document).out()).contains("\"source_path\" : \"/batch/dir/two.txt\"");
    }

    @Test
    void mirrorWithFiltersAndItsDryRun() throws Exception {
        Files.createDirectories(rootA.resolve("mirror/src/sub"));
        Files.writeString(rootA.resolve("mirror/src/keep.txt"), "keep");
        Files.writeString(rootA.resolve("mirror/src/sub/deep.txt"), "deep");
        Files.writeString(rootA.resolve("mirror/src/scratch.tmp"), "excluded");
        Files.createDirectories(rootB.resolve("mirror/dst/old"));
        Files.writeString(rootB.resolve("mirror/dst/old/stale.txt"), "stale");
        Files.writeString(rootB.resolve("mirror/dst/local.tmp"), "excluded names are kept");
        String[] args = {
            "transfer",
            "-r",
            "admin#a:/mirror/src",
            "admin#b:/mirror/dst",
            "--delete-destination-extra",
            "--exclude",
            "*.tmp"
        };
        Run dry = ok(admin(concat(args, "--dry-run")));
        assertThat(dry.out())
                .contains("Action", "copy", "/mirror/dst/keep.txt", "exclude", "/mirror/dst/scratch.tmp")
                .contains("delete", "/mirror/dst/old/stale.txt", "Paths to delete: 2");
        assertThat(rootB.resolve("mirror/dst/old/stale.txt")).exists();
        assertThat(rootB.resolve("mirror/dst/keep.txt")).doesNotExist();

        String taskId =
                ok(admin(concat(new String[] {"-F", "unix"}, args))).out().trim();
        ok(admin("wait", taskId, "--polling-interval", "0.2"));
        assertThat(rootB.resolve("mirror/dst/keep.txt")).hasContent("keep");
        assertThat(rootB.resolve("mirror/dst/sub/deep.txt")).hasContent("deep");
        assertThat(rootB.resolve("mirror/dst/old")).doesNotExist();
        assertThat(rootB.resolve("mirror/dst/scratch.tmp")).doesNotExist();
        assertThat(rootB.resolve("mirror/dst/local.tmp")).hasContent("excluded names are kept");
        assertThat(ok(admin("events", taskId)).out()).contains("DESTINATION_EXTRA_DELETED");
    }

    @Test
    void timersThroughTheCommandLine() throws Exception {
        Files.createDirectories(rootA.resolve("timed/src"));
        Files.writeString(rootA.resolve("timed/src/t.txt"), "timed");
        Run created = ok(admin(
                "-F",
                "json",
                "timer",
                "create",
                "-r",
                "admin#a:/timed/src",
                "admin#b:/timed/dst",
                "--interval",
                "2s",
                "--stop-after-runs",
                "2",
                "--name",
                "cli timer",
                "--sync-level",
                "size"));
        String id = json(created).get("job_id").asString();
        assertThat(ok(admin("timer", "list")).out()).contains(id, "cli timer", "every 2 s");
        // wait for the timer to end by its run count, asking the CLI
        String shown = Awaitility.await("timer " + id + " ended")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> ok(admin("timer", "show", id)).out(), out -> out.contains("ended"));
        assertThat(shown).contains("Status:", "ended", "Runs:", "SUBMITTED");
        assertThat(rootB.resolve("timed/dst/t.txt")).hasContent("timed");
        Run update = admin("timer", "update", id, "--name", "renamed");
        assertThat(ok(update).out()).contains("renamed");
        assertThat(admin("timer", "pause", id).err()).contains("ended");
        assertThat(ok(admin("timer", "delete", id)).out()).contains("deleted");
        assertThat(admin("timer", "show", id).exitCode()).isEqualTo(1);
        Run bad = admin("timer", "create", "admin#a:/x", "admin#b:/y", "--cron", "nightly");
        assertThat(bad.err()).contains("Field: timer.schedule.cron_expression");
    }

    @Test
    void timersStartLaterStopAtADateAndPauseAndResumeWhileLive() throws Exception {
        Files.createDirectories(rootA.resolve("window/src"));
        Files.writeString(rootA.resolve("window/src/w.txt"), "window");
        // far enough ahead that the timer exists well before its start; ticks at start, +2 s, +4 s
        Instant start = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.SECONDS);
        Instant end = start.plusSeconds(5);
        JsonNode created = json(admin(
                "-F",
                "json",
                "timer",
                "create",
                "-r",
                "admin#a:/window/src",
                "admin#b:/window/dst",
                "--interval",
                "2s",
                "--start",
                start.atOffset(ZoneOffset.ofHours(1)).toString(),
                "--stop-after-date",
                end.toString(),
                "--name",
                "cli window"));
        Instant answered = Instant.now();
        String id = created.get("job_id").asString();
        JsonNode schedule = created.get("schedule");
        assertThat(instant(schedule.get("start"))).isEqualTo(start);
        assertThat(schedule.get("end").get("condition").asString()).isEqualTo("time");
        assertThat(instant(schedule.get("end").get("datetime"))).isEqualTo(end);
        // the first tick is the start, not the creation: exactly so while the start is ahead of the
        // answer; a CLI slower than the 8 s lead (a loaded machine) may find one tick already run
        Instant nextRun = instant(created.get("next_run"));
        if (answered.isBefore(start)) {
            assertThat(nextRun).isEqualTo(start);
        } else {
            assertThat(nextRun).isIn(start, start.plusSeconds(2), start.plusSeconds(4));
        }
        assertThat(ok(admin("timer", "show", id)).out()).contains("Start:", "End:", "at ");

        JsonNode ended = awaitTimer(id, t -> "ended".equals(t.get("status").asString()));
        assertThat(ended.get("runs"))
                .extracting(r -> instant(r.get("scheduled_time")))
                .containsExactlyInAnyOrder(start, start.plusSeconds(2), start.plusSeconds(4));
        String first = ended.get("runs").get(0).get("task_id").asString();
        ok(admin("wait", first, "--polling-interval", "0.2"));
        assertThat(rootB.resolve("window/dst/w.txt")).hasContent("window");
        ok(admin("timer", "delete", id));

        // a live timer, paused and resumed through the CLI
        String live = everyTwoSeconds("/window/live", "cli live");
        awaitTimer(live, t -> t.get("runs").size() >= 1);
        Run pause = ok(admin("timer", "pause", live));
        Instant pausedAt = Instant.now();
        assertThat(pause.out()).contains("Status:", "inactive");
        JsonNode paused = showJson(live);
        assertThat(paused.get("next_run").isNull()).isTrue();
        int runsWhenPaused = paused.get("runs").size();
        // more than two intervals pass while it is paused, and no tick comes: a probe timer of the
        // same interval, made after the pause, ticks three times meanwhile (the scheduler's own
        // clock, however slow the machine)
        String probe = everyTwoSeconds("/window/probe", "cli probe");
        awaitTimer(probe, t -> t.get("runs").size() >= 3);
        JsonNode stillPaused = showJson(live);
        assertThat(stillPaused.get("status").asString()).isEqualTo("inactive");
        assertThat(stillPaused.get("runs").size()).isEqualTo(runsWhenPaused);
        ok(admin("timer", "delete", probe));
        Instant resumedAt = Instant.now();
        Run resume = ok(admin("timer", "resume", live));
        assertThat(resume.out()).contains("Status:", "active");
        JsonNode resumed = awaitTimer(live, t -> t.get("runs").size() > runsWhenPaused);
        assertThat(resumed.get("status").asString()).isEqualTo("active");
        // every tick came before the pause or after the resume (times shown to the second)
        Instant resumedSecond = resumedAt.truncatedTo(ChronoUnit.SECONDS);
        for (JsonNode run : resumed.get("runs")) {
            Instant tick = instant(run.get("scheduled_time"));
            assertThat(!tick.isAfter(pausedAt) || !tick.isBefore(resumedSecond))
                    .as("tick %s outside the pause %s .. %s", tick, pausedAt, resumedAt)
                    .isTrue();
        }
        assertThat(ok(admin("timer", "delete", live)).out()).contains("deleted");
    }

    /** @return the id of a new timer copying {@code admin#a:/window/src} to {@code admin#b:DESTINATION} every 2 s */
    private String everyTwoSeconds(String destination, String name) {
        return json(admin(
                        "-F",
                        "json",
                        "timer",
                        "create",
                        "-r",
                        "admin#a:/window/src",
                        "admin#b:" + destination,
                        "--interval",
                        "2s",
                        "--name",
                        name))
                .get("job_id")
                .asString();
    }

    /** @return the timer with its runs ({@code ferry -F json timer show}) */
    private JsonNode showJson(String id) {
        return json(admin("-F", "json", "timer", "show", id));
    }

    private JsonNode awaitTimer(String id, Predicate<JsonNode> done) {
        return Awaitility.await("timer " + id)
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> showJson(id), done);
    }

    private static Instant instant(JsonNode time) {
        return OffsetDateTime.parse(time.asString()).toInstant();
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    @Test
    void optionsTheServerLacksAreRefusedByName() {
        // --encrypt is implemented for gsiftp:// endpoints; these clear-text ones cannot encrypt
        Run encrypt = admin("transfer", "admin#a:/x", "admin#b:/y", "--no-recursive", "--encrypt");
        assertThat(encrypt.exitCode()).isEqualTo(1);
        assertThat(encrypt.err())
                .contains("ClientError.BadRequest: encrypt_data needs endpoints", "Field: encrypt_data");
        Run mirror = admin("transfer", "admin#a:/x", "admin#b:/y", "--no-recursive", "--delete-destination-extra");
        assertThat(mirror.err()).contains("Field: delete_destination_extra");
        // --notify is implemented (issue 15): the server takes the notify_on_* flags
        Run notify = admin("transfer", "admin#a:/x", "admin#b:/y", "--no-recursive", "--notify", "on");
        assertThat(notify.exitCode()).as(notify.err()).isZero();
        assertThat(notify.out()).contains("Task ID: ");
        assertThat(notify.err()).doesNotContain("notify_on");
    }

    @Test
    void scpCopiesLikeScp() throws Exception {
        Files.createDirectories(rootA.resolve("scp/run1/deep"));
        Files.writeString(rootA.resolve("scp/results.h5"), "results");
        Files.writeString(rootA.resolve("scp/notes.txt"), "notes");
        Files.writeString(rootA.resolve("scp/run1/deep/x"), "x");
        Files.createDirectories(rootB.resolve("archive"));

        ok(admin("scp", "admin#a:/scp/results.h5", "admin#b:/archive/"));
        assertThat(Files.readString(rootB.resolve("archive/results.h5"))).isEqualTo("results");
        ok(admin("scp", "-q", "admin#a:/scp/notes.txt", "admin#b:/archive/renamed.txt"));
        assertThat(Files.readString(rootB.resolve("archive/renamed.txt"))).isEqualTo("notes");
        ok(admin("scp", "-r", "admin#a:/scp/run1", "admin#b:/archive"));
        assertThat(Files.readString(rootB.resolve("archive/run1/deep/x"))).isEqualTo("x");
        // two sources need an existing directory: /archive/two is none
        Run notADirectory = admin("scp", "admin#a:/scp/results.h5", "admin#a:/scp/notes.txt", "admin#b:/archive/two");
        assertThat(notADirectory.exitCode()).isEqualTo(1);
        assertThat(notADirectory.err()).contains("not a directory");
        assertThat(Files.exists(rootB.resolve("archive/two"))).isFalse();
        Files.createDirectories(rootB.resolve("archive/two"));
        ok(admin("scp", "admin#a:/scp/results.h5", "admin#a:/scp/notes.txt", "admin#b:/archive/two"));
        assertThat(Files.readString(rootB.resolve("archive/two/notes.txt"))).isEqualTo("notes");

        Run directory = admin("scp", "admin#a:/scp/run1", "admin#b:/archive/");
        assertThat(directory.exitCode()).isEqualTo(1);
        assertThat(directory.err()).contains("not a regular file (use -r)");
        Run missing = admin("scp", "admin#a:/scp/none", "admin#b:/archive/");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("No such file or directory");
    }

    /**
     * {@code scp -p} and {@code transfer --preserve-mtime} (issue 14): destination files end with
     * their sources' old modification times, to the second; {@code scp} without {@code -p} leaves
     * the time of the write.
     */
    @Test
    void scpDashPAndPreserveMtimeKeepModificationTimes() throws Exception {
        Instant old = Instant.parse("2011-12-13T14:15:16Z");
        Map<String, Instant> times = new HashMap<>();
        String[] files = {"one.txt", "run/a.dat", "run/deep/b.dat", "run/deep/c.dat"};
        for (int i = 0; i < files.length; i++) {
            Path file = rootA.resolve("mtimes").resolve(files[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, "content of " + files[i]);
            Instant time = old.plus(Duration.ofDays(40L * i)).plusSeconds(i);
            Files.setLastModifiedTime(file, FileTime.from(time));
            times.put(files[i], time);
        }
        Files.createDirectories(rootB.resolve("mtimes-scp"));
        Instant beforeWrites = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);

        ok(admin("scp", "-p", "-q", "admin#a:/mtimes/one.txt", "admin#b:/mtimes-scp/"));
        ok(admin("scp", "-r", "-p", "-q", "admin#a:/mtimes/run", "admin#b:/mtimes-scp/"));
        for (String file : files) {
            assertThat(Files.getLastModifiedTime(rootB.resolve("mtimes-scp").resolve(file))
                            .toInstant())
                    .as("scp -p " + file)
                    .isEqualTo(times.get(file));
        }
        ok(admin("scp", "-q", "admin#a:/mtimes/one.txt", "admin#b:/mtimes-scp/plain.txt"));
        assertThat(Files.getLastModifiedTime(rootB.resolve("mtimes-scp/plain.txt"))
                        .toInstant())
                .as("scp without -p")
                .isAfterOrEqualTo(beforeWrites);

        String taskId = ok(admin(
                        "-F",
                        "unix",
                        "transfer",
                        "-r",
                        "admin#a:/mtimes/run",
                        "admin#b:/mtimes-transfer",
                        "--preserve-mtime"))
                .out()
                .trim();
        ok(admin("wait", taskId, "--polling-interval", "0.2"));
        for (String file : List.of("a.dat", "deep/b.dat", "deep/c.dat")) {
            assertThat(Files.getLastModifiedTime(
                                    rootB.resolve("mtimes-transfer").resolve(file))
                            .toInstant())
                    .as("transfer --preserve-mtime " + file)
                    .isEqualTo(times.get("run/" + file));
        }
        assertThat(ok(admin("details", taskId)).out()).containsPattern("Preserve Timestamp:\\s+true");
        assertThat(json(admin("-F", "json", "status", taskId))
                        .get("preserve_timestamp")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void rmWaitsAndDeleteSubmits() throws Exception {
        Files.createDirectories(rootB.resolve("rm/tree/deep"));
        Files.writeString(rootB.resolve("rm/tree/deep/f"), "f");
        Files.writeString(rootB.resolve("rm/single"), "s");
        Run rm = admin("rm", "admin#b:/rm/tree");
        assertThat(rm.exitCode()).isEqualTo(1);
        assertThat(rm.err()).contains("NOT_A_FILE");
        ok(admin("rm", "-r", "admin#b:/rm/tree"));
        assertThat(Files.exists(rootB.resolve("rm/tree"))).isFalse();
        assertThat(admin("rm", "admin#b:/rm/none").exitCode()).isEqualTo(1);
        ok(admin("rm", "-f", "admin#b:/rm/none"));

        String taskId =
                ok(admin("-F", "unix", "delete", "admin#b:/rm/single")).out().trim();
        ok(admin("wait", taskId, "--polling-interval", "0.2"));
        assertThat(Files.exists(rootB.resolve("rm/single"))).isFalse();
        assertThat(json(admin("-F", "json", "status", taskId)).get("type").asString())
                .isEqualTo("DELETE");
    }

    @Test
    void deadlineAndCancelOfARunningTask() throws Exception {
        byte[] data = new byte[4 << 20];
        new java.util.Random(3).nextBytes(data);
        Files.write(rootSlow.resolve("big.bin"), data);
        String taskId = ok(admin("-F", "unix", "transfer", "admin#slow:/big.bin", "admin#b:/big.bin"))
                .out()
                .trim();
        ok(admin("deadline", taskId, "+2h"));
        assertThat(json(admin("-F", "json", "status", taskId)).get("deadline").asString())
                .isNotBlank();
        Run timedOut = admin("wait", taskId, "--timeout", "0.5", "--timeout-exit-code", "50");
        assertThat(timedOut.exitCode()).as(timedOut.describe()).isEqualTo(50);
        assertThat(ok(admin("cancel", taskId)).out()).contains("cancelled");
        Run waited = admin("wait", taskId);
        assertThat(waited.exitCode()).isEqualTo(1);
        assertThat(waited.out()).contains("FAILED", "Fatal Error: CANCELED");
        Run late = admin("deadline", taskId, "+1h");
        assertThat(late.exitCode()).isEqualTo(1);
        assertThat(late.err()).contains("ClientError.Conflict");
        assertThat(ok(admin("cancel", "--all")).out()).isNotBlank();
    }

    @Test
    void loginWhoamiTokensUsersAndLogout() throws Exception {
        ok(ferry(server.ferryHome(), "alice-secret\n", "user", "add", "alice", "--password-stdin"));
        assertThat(ok(admin("-F", "unix", "user", "list")).out()).contains("alice\tUSER");
        Path aliceHome = Files.createDirectories(work.resolve("alice-home"));

        Run before = ferry(aliceHome, "", "whoami");
        assertThat(before.exitCode()).isEqualTo(4);
        assertThat(before.err()).contains("ferry login");

        Run wrong = ferry(aliceHome, "nope\n", "login", "--username", "alice", "--password-stdin");
        assertThat(wrong.exitCode()).isEqualTo(4);
        ok(ferry(aliceHome, "alice-secret\n", "login", "--username", "alice", "--password-stdin"));
        Path tokenFile = aliceHome.resolve("cli-token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
                .isEqualTo("rw-------");
        Run whoami = ok(ferry(aliceHome, "", "whoami"));
        assertThat(whoami.out()).contains("alice", "USER", "TOKEN", tokenFile.toString());

        String token = ok(ferry(aliceHome, "", "-F", "unix", "token", "create", "--expires-in", "1d"))
                .out()
                .trim();
        assertThat(token).hasSize(43);
        assertThat(ok(ferry(aliceHome, "", "token", "list")).out()).contains("ferry login on");
        Run forbidden = ferry(aliceHome, "", "user", "list");
        assertThat(forbidden.exitCode()).isEqualTo(4);
        assertThat(forbidden.err()).contains("ClientError.PermissionDenied");
        // alice sees none of the admin's endpoints
        assertThat(ok(ferry(aliceHome, "", "-F", "unix", "endpoint", "list")).out())
                .doesNotContain("admin#a");

        JsonNode loggedOut = json(ferry(aliceHome, "", "-F", "json", "logout"));
        assertThat(loggedOut.get("code").asString()).isEqualTo("LoggedOut");
        assertThat(loggedOut.get("token_revoked").asBoolean()).isTrue();
        assertThat(loggedOut.get("token_file").asString()).isEqualTo(tokenFile.toString());
        assertThat(Files.exists(tokenFile)).isFalse();
        assertThat(ferry(aliceHome, "", "whoami").exitCode()).isEqualTo(4);
        assertThat(ok(ferry(aliceHome, "", "-F", "unix", "logout")).out().trim())
                .isEqualTo("NotLoggedIn");

        ok(admin("user", "disable", "alice"));
        Run disabled = ferry(aliceHome, "alice-secret\n", "login", "--username", "alice", "--password-stdin");
        assertThat(disabled.exitCode()).isEqualTo(4);
    }
}
