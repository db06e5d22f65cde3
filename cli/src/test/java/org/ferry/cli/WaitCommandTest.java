package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class WaitCommandTest extends CliTestBase {
    private static final String PATH = "/v0.10/task/" + TASK_ID;

    @Test
    void succeededExitsZeroAfterPollingUntilTheEnd() {
        api.on(
                "GET",
                PATH,
                200,
                task("ACTIVE", "Queued", 0, 0, 0),
                task("ACTIVE", "OK", 4, 2, 1024),
                task("SUCCEEDED", null, 4, 4, 2048));

        CliRunner.Result result = ferry("wait", TASK_ID, "--polling-interval", "0.01");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(api.requests())
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.authorization()).isEqualTo("Bearer " + TOKEN));
        assertThat(result.out()).isEqualTo("Task " + TASK_ID + " SUCCEEDED: 4/4 files, 2.0 KiB, 1.0 MiB/s, 0 faults\n");
        // Plain lines (CI=true): one per status change, no carriage returns.
        assertThat(result.err()).doesNotContain("\r");
        assertThat(result.err().lines().toList())
                .containsExactly(
                        "ACTIVE (Queued): 0/0 files, 0 B, 1.0 MiB/s, 0 faults",
                        "ACTIVE (OK): 2/4 files, 1.0 KiB, 1.0 MiB/s, 0 faults",
                        "SUCCEEDED: 4/4 files, 2.0 KiB, 1.0 MiB/s, 0 faults");
    }

    @Test
    void failedExitsOneAndShowsTheFatalError() {
        api.on("GET", PATH, 200, task("ACTIVE", "OK", 4, 2, 1024), task("FAILED", null, 4, 2, 1024));

        CliRunner.Result result = ferry("wait", TASK_ID, "--polling-interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out())
                .contains("Task " + TASK_ID + " FAILED: 2/4 files")
                .contains("Fatal Error: FILE_NOT_FOUND: /src/x: no such file");
    }

    @Test
    void transientServerErrorsAreRetried() {
        String unavailable =
                "{\"DATA_TYPE\":\"error\",\"code\":\"ServerError.InternalError\"," + "\"message\":\"restarting\"}";
        api.on("GET", PATH, 503, unavailable, unavailable).then("GET", PATH, 200, task("SUCCEEDED", null, 1, 1, 5));

        CliRunner.Result result = ferry("wait", TASK_ID, "--polling-interval", "0.01");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err())
                .contains("Warning: restarting (retrying, 1/5)")
                .contains("Warning: restarting (retrying, 2/5)");
    }

    @Test
    void persistentServerErrorsEndTheWait() {
        api.on(
                "GET",
                PATH,
                500,
                "{\"DATA_TYPE\":\"error\",\"code\":\"ServerError.InternalError\",\"message\":\"boom\"}");

        CliRunner.Result result = ferry("wait", TASK_ID, "--polling-interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(api.requests()).hasSize(WaitCommand.MAX_TRANSIENT_FAILURES + 1);
        assertThat(result.err()).endsWith("Error: ServerError.InternalError: boom\n");
    }

    @Test
    void unknownTaskEndsTheWaitAtOnce() {
        CliRunner.Result result = ferry("wait", "nope", "--polling-interval", "0.01");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(api.requests()).hasSize(1);
        assertThat(result.err()).startsWith("Error: ClientError.NotFound:");
    }

    @Test
    void timeoutExitsOneByDefault() {
        api.on("GET", PATH, 200, task("ACTIVE", "OK", 4, 2, 1024));

        CliRunner.Result result = ferry("wait", TASK_ID, "--timeout", "0.3", "--polling-interval", "0.05");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(api.requests().size()).isGreaterThan(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("Timed out after 0.3 s waiting for task " + TASK_ID + " (ACTIVE)");
    }

    @Test
    void timeoutExitCodeIsConfigurable() {
        api.on("GET", PATH, 200, task("ACTIVE", "OK", 4, 2, 1024));

        assertThat(ferry("wait", TASK_ID, "--timeout", "0", "--timeout-exit-code", "50")
                        .exitCode())
                .isEqualTo(50);
    }

    @Test
    void jsonPrintsTheFinalTaskDocument() {
        api.on("GET", PATH, 200, task("SUCCEEDED", null, 1, 1, 5));

        CliRunner.Result result = ferry("-F", "json", "wait", TASK_ID);

        assertThat(result.exitCode()).isZero();
        assertThat(json(result.out())).isEqualTo(json(task("SUCCEEDED", null, 1, 1, 5)));
    }

    @Test
    void terminalGetsABarRedrawnInPlace() {
        env.remove("CI");
        api.on("GET", PATH, 200, task("ACTIVE", "OK", 4, 2, 1024), task("SUCCEEDED", null, 4, 4, 2048));
        CliEnvironment terminal = new CliEnvironment(env, home, new ByteArrayInputStream(new byte[0]), true);

        CliRunner.Result result = CliRunner.run(terminal, "wait", TASK_ID, "--polling-interval", "0.01");

        assertThat(result.exitCode()).isZero();
        assertThat(result.err())
                .startsWith("\r[###############---------------]  2/4 files  1.0 KiB")
                .contains("\r[##############################]  4/4 files  2.0 KiB  1.0 MiB/s  SUCCEEDED")
                .endsWith("\n");
    }

    @Test
    void ciOnATerminalStillGetsPlainLines() {
        api.on("GET", PATH, 200, task("SUCCEEDED", null, 4, 4, 2048));
        CliEnvironment ciTerminal = new CliEnvironment(env, home, new ByteArrayInputStream(new byte[0]), true);

        assertThat(CliRunner.run(ciTerminal, "wait", TASK_ID).err()).doesNotContain("\r");
    }
}
