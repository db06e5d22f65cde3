package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ferry logout} in the three output formats where no request is needed: nobody logged in,
 * and a token file that names no token id (revoking one against a real server is
 * CliEndToEndTest's). No API listens: a request would fail the command.
 */
class LogoutCommandTest {

    @TempDir
    Path home;

    private CliRunner.Result logout(String... format) {
        String[] args = new String[format.length + 1];
        System.arraycopy(format, 0, args, 0, format.length);
        args[format.length] = "logout";
        return CliRunner.run(Map.of("FERRY_API", "http://127.0.0.1:1", "FERRY_HOME", home.toString()), home, "", args);
    }

    @Test
    void notLoggedInIsSaidInEachFormat() {
        Path file = home.resolve("cli-token");
        CliRunner.Result text = logout();
        assertThat(text.exitCode()).isZero();
        assertThat(text.out().trim()).isEqualTo("Not logged in (no " + file + ")");

        CliRunner.Result unix = logout("-F", "unix");
        assertThat(unix.exitCode()).isZero();
        assertThat(unix.out().trim()).isEqualTo("NotLoggedIn");

        CliRunner.Result json = logout("-F", "json");
        assertThat(json.exitCode()).isZero();
        JsonNode result = JsonMapper.builder().build().readTree(json.out());
        assertThat(result.get("code").asString()).isEqualTo("NotLoggedIn");
        assertThat(result.get("token_file").asString()).isEqualTo(file.toString());
        assertThat(result.get("token_id").isNull()).isTrue();
        assertThat(result.get("token_revoked").asBoolean()).isFalse();
    }

    @Test
    void aTokenFileWithoutATokenIdIsDeletedWithoutARequest() throws Exception {
        Path file = home.resolve("cli-token");
        Files.writeString(file, "a-token-from-an-older-ferry-login\n");
        JsonNode json =
                JsonMapper.builder().build().readTree(logout("-F", "json").out());
        assertThat(json.get("code").asString()).isEqualTo("LoggedOut");
        assertThat(json.get("token_revoked").asBoolean()).isFalse();
        assertThat(file).doesNotExist();

        Files.writeString(file, "a-token-from-an-older-ferry-login\n");
        CliRunner.Result text = logout();
        assertThat(text.exitCode()).isZero();
        assertThat(text.out().trim()).isEqualTo("Logged out: " + file + " deleted (it named no token id to revoke)");
        assertThat(file).doesNotExist();

        Files.writeString(file, "a-token-from-an-older-ferry-login\n");
        assertThat(logout("-F", "unix").out().trim()).isEqualTo("LoggedOut");
    }
}
