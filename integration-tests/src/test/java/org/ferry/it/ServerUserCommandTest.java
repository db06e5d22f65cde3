package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ferry-server user ...} through the real launcher jar: accounts made in a fresh
 * FERRY_HOME before the first start work once the server runs (and the first-start admin with
 * its token file is still made), and a running server's H2 database is refused with a message
 * saying what to do. Standard output carries only the command's own output.
 */
class ServerUserCommandTest {

    /** One run: its exit code, its standard output and its standard error, apart. */
    record Run(int exitCode, String stdout, String stderr) {
        String output() {
            return stdout + stderr;
        }
    }

    private static Run ferryServer(Path home, String stdin, String... args) throws Exception {
        List<String> command = new ArrayList<>(Launchers.fromBuild().ferryServer());
        command.addAll(List.of(args));
        Path stderr = Files.createTempFile("ferry-server-user", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().put("FERRY_HOME", home.toString());
        Process process = builder.start();
        process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("ferry-server " + String.join(" ", args) + " hung:\n" + output);
        }
        String errors = Files.readString(stderr);
        Files.delete(stderr);
        return new Run(process.exitValue(), output, errors);
    }

    @Test
    void accountsMadeBeforeTheFirstStartWorkAndARunningServerIsLeftAlone(@TempDir Path work) throws Exception {
        Path home = Files.createDirectories(work.resolve("home"));
        Run add = ferryServer(home, "bobs-password\n", "user", "add", "bob", "--password-stdin", "--token");
        assertThat(add.exitCode()).as(add.output()).isZero();
        assertThat(add.output()).contains("Created user bob");
        String bobsToken = add.output()
                .lines()
                .filter(l -> l.matches("[A-Za-z0-9_-]{43}"))
                .findFirst()
                .orElseThrow();
        assertThat(ferryServer(home, "", "user", "add").exitCode()).isEqualTo(2);

        try (FerryServerProcess server =
                FerryServerProcess.start(Launchers.fromBuild(), home, work.resolve("server.log"))) {
            assertThat(me(server, bobsToken)).contains("\"username\":\"bob\"");
            // bob is no admin, so the first start still made one, with its token file
            assertThat(me(server, Files.readString(home.resolve("token")).trim()))
                    .contains("\"role\":\"ADMIN\"");
            Run locked = ferryServer(home, "", "user", "disable", "bob");
            assertThat(locked.exitCode()).isEqualTo(1);
            assertThat(locked.output()).contains("in use by a running ferry-server");
        }
        assertThat(ferryServer(home, "", "user", "disable", "bob").exitCode()).isZero();
        assertThat(ferryServer(home, "", "user", "list").stdout()).contains("bob\tuser\tdisabled\tpassword");
        // standard output holds the token alone (Spring's log goes to standard error), so that
        // `ferry-server user token bob > token-file` makes a file the CLI reads
        Run token = ferryServer(home, "", "user", "token", "bob");
        assertThat(token.exitCode()).as(token.output()).isZero();
        assertThat(token.stdout()).matches("[A-Za-z0-9_-]{43}\\R");
    }

    private static String me(FerryServerProcess server, String token) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.apiUrl() + "/v0.10/me"))
                                .header("Authorization", "Bearer " + token)
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
