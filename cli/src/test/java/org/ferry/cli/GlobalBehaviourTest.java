package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class GlobalBehaviourTest extends CliTestBase {
    private static final String TASKS =
            "{\"DATA_TYPE\":\"task_list\",\"DATA\":[],\"length\":0,\"limit\":10,\"offset\":0,\"total\":0}";

    @Test
    void tokenComesFromFerryHomeWhenTheVariableIsUnset() throws Exception {
        env.remove("FERRY_TOKEN");
        Files.writeString(home.resolve("token"), "file-token\n");
        env.put("FERRY_HOME", home.toString());
        api.on("GET", "/v0.10/task_list", 200, TASKS);

        assertThat(ferry("status").exitCode()).isZero();
        assertThat(api.onlyRequest().authorization()).isEqualTo("Bearer file-token");
    }

    @Test
    void tokenFileDefaultsToDotFerryInTheHomeDirectory() throws Exception {
        env.remove("FERRY_TOKEN");
        Files.createDirectories(home.resolve(".ferry"));
        Files.writeString(home.resolve(".ferry/token"), "home-token");
        api.on("GET", "/v0.10/task_list", 200, TASKS);

        assertThat(ferry("status").exitCode()).isZero();
        assertThat(api.onlyRequest().authorization()).isEqualTo("Bearer home-token");
    }

    @Test
    void tokenVariableWinsOverTheFile() throws Exception {
        Files.writeString(home.resolve("token"), "file-token\n");
        env.put("FERRY_HOME", home.toString());
        api.on("GET", "/v0.10/task_list", 200, TASKS);

        assertThat(ferry("status").exitCode()).isZero();
        assertThat(api.onlyRequest().authorization()).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void withoutAnyTokenTheUnauthorizedErrorSaysWhereToPutOne() {
        env.remove("FERRY_TOKEN");
        env.put("FERRY_HOME", home.resolve("nowhere").toString());
        api.on(
                "GET",
                "/v0.10/task_list",
                401,
                "{\"DATA_TYPE\":\"error\",\"code\":\"AuthenticationFailed\",\"message\":\"no token\"}");

        CliRunner.Result result = ferry("status");

        assertThat(api.onlyRequest().authorization()).isNull();
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err())
                .startsWith("Error: AuthenticationFailed: no token\n")
                .contains("set FERRY_TOKEN or write the token to " + home.resolve("nowhere/token"));
    }

    @Test
    void apiOptionWinsOverTheVariable() throws Exception {
        api.on("GET", "/v0.10/task_list", 200, TASKS);
        env.put("FERRY_API", "http://127.0.0.1:1");

        assertThat(ferry("--api", api.url(), "status").exitCode()).isZero();
        assertThat(api.requests()).hasSize(1);
    }

    @Test
    void unreachableApiSaysSo() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closedPort;

        CliRunner.Result result = ferry("--api", url, "status");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err())
                .isEqualTo("Error: cannot reach the Ferry API at " + url + ": is ferry-server running?\n");
    }

    @Test
    void nonJsonErrorBodiesAreReportedWithTheHttpStatus() {
        api.on("GET", "/v0.10/task_list", 502, "<html>Bad Gateway</html>");

        CliRunner.Result result = ferry("status");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).isEqualTo("Error: HTTP 502: <html>Bad Gateway</html>\n");
    }

    @Test
    void noSubcommandIsAUsageError() {
        assertThat(ferry().exitCode()).isEqualTo(2);
        assertThat(ferry("endpoint").exitCode()).isEqualTo(2);
        assertThat(ferry("frobnicate").exitCode()).isEqualTo(2);
        assertThat(ferry("-F", "yaml", "status").exitCode()).isEqualTo(2);
    }

    @Test
    void helpAndVersionWorkEverywhere() {
        CliRunner.Result version = ferry("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).startsWith("ferry ");

        CliRunner.Result help = ferry("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .contains("endpoint", "ls", "transfer", "status", "events", "cancel", "wait", "FERRY_TOKEN");
        for (String[] command : new String[][] {
            {"endpoint", "add"},
            {"endpoint", "list"},
            {"endpoint", "show"},
            {"endpoint", "remove"},
            {"ls"},
            {"transfer"},
            {"status"},
            {"events"},
            {"cancel"},
            {"wait"}
        }) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--help";
            CliRunner.Result result = ferry(args);
            assertThat(result.exitCode()).as(String.join(" ", args)).isZero();
            assertThat(result.out()).as(String.join(" ", args)).contains("Usage: ferry");
        }
        assertThat(api.requests()).isEmpty();
    }
}
