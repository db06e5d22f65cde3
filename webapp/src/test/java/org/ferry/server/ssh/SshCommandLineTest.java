package org.ferry.server.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.cli.CliEnvironment;
import org.ferry.cli.FerryCli;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The command line over SSH against Debian's OpenSSH client ({@code /usr/bin/ssh}, a key made
 * per run by {@code ssh-keygen}, the server's host key pinned in a known_hosts file of the run):
 * the same output and exit codes as the CLI, keys added over REST/CLI and over SSH's standard
 * input, and everything that is not a ferry command refused (other keys, other host keys, a
 * shell, port forwarding, SFTP, files of the server, shell metacharacters taken literally).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SshCommandLineTest {

    private static final Path HOME = tempDirectory("ferry-ssh-cli-home");
    private static final Path DATA = tempDirectory("ferry-ssh-cli-data");
    private static final Path RUN = tempDirectory("ferry-ssh-cli-run");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.ssh.port", () -> "0");
    }

    @LocalServerPort
    int httpPort;

    @Autowired
    SshCommandLine ssh;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    private GridFtpServer gridFtp;
    private String aliceToken;
    private Path key;
    private Path otherKey;
    private Path knownHosts;

    @BeforeAll
    void setUp() throws Exception {
        Files.writeString(DATA.resolve("hello.txt"), "hello over ssh\n");
        gridFtp = GridFtpServer.start(
                GridFtpServerConfig.loopback(DATA).withPort(0).withAnonymousAllowed(true));
        var alice = accounts.create("alice", Role.USER, "password-of-alice");
        aliceToken = tokens.create(AccountService.caller(alice), "test", null).token();
        key = keygen("id_alice");
        otherKey = keygen("id_other");
        knownHosts = RUN.resolve("known_hosts");
        Files.writeString(
                knownHosts, "[127.0.0.1]:" + ssh.port() + " " + PublicKeyEntry.toString(ssh.hostKey()) + "\n");
        Result added = cli("ssh-key", "add", "--description", "test key", key + ".pub");
        assertThat(added.code()).as(added.err()).isZero();
        assertThat(added.out()).contains("Fingerprint: SHA256:");
        Result endpoint = cli("endpoint", "add", "alice#data", "--url", "ftp://127.0.0.1:" + gridFtp.port());
        assertThat(endpoint.code()).as(endpoint.err()).isZero();
    }

    @AfterAll
    void tearDown() {
        if (gridFtp != null) {
            gridFtp.close();
        }
    }

    @Test
    void aRegisteredKeyRunsFerryCommandsWithTheCliOutputAndExitCodes() throws Exception {
        Result whoami = ssh(key, List.of(), "whoami", "-F", "unix");
        assertThat(whoami.code()).as(whoami.err()).isZero();
        assertThat(whoami.out()).isEqualTo("alice\n");

        Result local = cli("ls", "alice#data:/");
        Result remote = ssh(key, List.of(), "ls", "alice#data:/");
        assertThat(remote.code()).as(remote.err()).isZero();
        assertThat(remote.out()).contains("hello.txt").isEqualTo(local.out());
        assertThat(ssh(key, List.of(), "ferry", "ls", "alice#data:/").out()).isEqualTo(local.out());

        Result missing = ssh(key, List.of(), "ls", "alice#nosuch:/");
        assertThat(missing.code())
                .isEqualTo(1)
                .isEqualTo(cli("ls", "alice#nosuch:/").code());
        assertThat(missing.err()).contains("Error:").contains("alice#nosuch");

        Result usage = ssh(key, List.of(), "frobnicate");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).contains("frobnicate");
    }

    @Test
    void aTransferSubmittedOverSshRunsAndWaitExitsZero() throws Exception {
        Result submitted =
                ssh(key, List.of(), "transfer", "-F", "unix", "alice#data:/hello.txt", "alice#data:/copy.txt");
        assertThat(submitted.code()).as(submitted.err()).isZero();
        String taskId = submitted.out().strip();
        Result waited = ssh(key, List.of(), "wait", taskId);
        assertThat(waited.code()).as(waited.out() + waited.err()).isZero();
        assertThat(Files.readString(DATA.resolve("copy.txt"))).isEqualTo("hello over ssh\n");
        Result status = ssh(key, List.of(), "status", "-F", "json", taskId);
        assertThat(status.out()).contains("\"SUCCEEDED\"");
    }

    @Test
    void shellMetacharactersArePassedLiterallyNeverToAShell() throws Exception {
        Path marker = RUN.resolve("pwned");
        Result result = ssh(key, List.of(), "ls 'alice#x;touch " + marker + "' \"$(touch " + marker + ")\" `id`");
        assertThat(result.code()).isIn(1, 2);
        assertThat(marker).doesNotExist();
        Result quoted = ssh(key, List.of(), "ls", "'alice#data:/'");
        assertThat(quoted.out()).contains("hello.txt");
        assertThat(ssh(key, List.of(), "ls 'alice#data:/").err()).contains("unclosed single quote");
    }

    @Test
    void anUnregisteredKeyAnUnknownHostKeyAndARemovedKeyAreRefused() throws Exception {
        Result other = ssh(otherKey, List.of(), "whoami");
        assertThat(other.code()).isEqualTo(255);
        assertThat(other.err()).contains("Permission denied (publickey)");

        Result wrongUser = sshAs("bob", key, List.of(), "whoami");
        assertThat(wrongUser.code()).isEqualTo(255);

        Path strangeHosts = RUN.resolve("known_hosts_other");
        Files.writeString(
                strangeHosts, "[127.0.0.1]:" + ssh.port() + " " + Files.readString(Path.of(otherKey + ".pub")));
        Result unknownHost =
                run(command("alice", key, List.of("-o", "UserKnownHostsFile=" + strangeHosts), List.of("whoami")));
        assertThat(unknownHost.code()).isEqualTo(255);
        assertThat(unknownHost.err()).contains("Host key verification failed");

        // a key added over SSH (standard input, as files of the server cannot be read) works at once,
        // and stops working when removed
        Result byStdin = run(
                command("alice", key, List.of(), List.of("ssh-key", "add", "-")),
                Files.readString(Path.of(otherKey + ".pub")));
        assertThat(byStdin.code()).as(byStdin.err()).isZero();
        String fingerprint = byStdin.out()
                .lines()
                .filter(l -> l.startsWith("Fingerprint: "))
                .findFirst()
                .orElseThrow()
                .substring("Fingerprint: ".length());
        assertThat(ssh(otherKey, List.of(), "whoami", "-F", "unix").out()).isEqualTo("alice\n");
        Result list = ssh(key, List.of(), "ssh-key", "list", "-F", "json");
        assertThat(list.out())
                .contains(fingerprint)
                .isEqualTo(cli("-F", "json", "ssh-key", "list").out());
        assertThat(ssh(key, List.of(), "ssh-key", "remove", fingerprint).code()).isZero();
        assertThat(ssh(otherKey, List.of(), "whoami").code()).isEqualTo(255);
    }

    @Test
    void noShellNoForwardingNoSftpNoServerFiles() throws Exception {
        Result shell = ssh(key, List.of("-T"));
        assertThat(shell.code()).isEqualTo(2);
        assertThat(shell.err()).contains("no shell");

        Result forward = ssh(key, List.of("-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:" + httpPort), "whoami");
        assertThat(forward.code()).isEqualTo(255);
        assertThat(forward.err()).containsIgnoringCase("forwarding failed");

        Result sftp = ssh(key, List.of("-s"), "sftp");
        assertThat(sftp.code()).isNotZero();
        assertThat(sftp.err()).contains("subsystem request failed");

        Result file = ssh(key, List.of(), "ssh-key", "add", "/etc/passwd");
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err()).contains("cannot be read over SSH");
        Result batch = ssh(key, List.of(), "transfer", "--batch", "/etc/passwd", "alice#data:/", "alice#data:/x/");
        assertThat(batch.code()).isEqualTo(2);
        assertThat(batch.err()).contains("cannot be read over SSH");
        // nor another API: the session token and the server's requests stay with this server
        Result elsewhere = ssh(key, List.of(), "ferry", "--api", "http://127.0.0.1:" + gridFtp.port(), "whoami");
        assertThat(elsewhere.code()).as(elsewhere.err()).isEqualTo(2);
        assertThat(elsewhere.err()).contains("--api cannot be given over SSH");
        Result after = ssh(key, List.of(), "ls", "alice#data:/", "--api=http://127.0.0.1:" + gridFtp.port());
        assertThat(after.code()).as(after.err()).isEqualTo(2);
        assertThat(after.err()).contains("--api cannot be given over SSH");
        Result login = ssh(key, List.of(), "login");
        assertThat(login.code()).isEqualTo(2);
        assertThat(login.err()).contains("your key signs you in");
    }

    record Result(int code, String out, String err) {}

    private Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = FerryCli.run(
                new CliEnvironment(
                        Map.of("FERRY_API", "http://127.0.0.1:" + httpPort, "FERRY_TOKEN", aliceToken),
                        RUN,
                        new ByteArrayInputStream(new byte[0]),
                        false),
                out,
                err,
                args);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Result ssh(Path identity, List<String> options, String... remote) throws Exception {
        return sshAs("alice", identity, options, remote);
    }

    private Result sshAs(String user, Path identity, List<String> options, String... remote) throws Exception {
        return run(command(user, identity, options, List.of(remote)));
    }

    private List<String> command(String user, Path identity, List<String> options, List<String> remote) {
        List<String> command = new ArrayList<>(List.of(
                "/usr/bin/ssh",
                "-F",
                "/dev/null",
                "-p",
                String.valueOf(ssh.port()),
                "-i",
                identity.toString(),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "IdentityAgent=none",
                "-o",
                "BatchMode=yes",
                "-o",
                "StrictHostKeyChecking=yes",
                "-o",
                "GlobalKnownHostsFile=/dev/null"));
        if (options.stream().noneMatch(o -> o.startsWith("UserKnownHostsFile="))) {
            command.addAll(List.of("-o", "UserKnownHostsFile=" + knownHosts));
        }
        command.addAll(options);
        command.add(user + "@127.0.0.1");
        command.addAll(remote);
        return command;
    }

    private static Result run(List<String> command) throws Exception {
        return run(command, "");
    }

    private static Result run(List<String> command, String stdin) throws Exception {
        File out = Files.createTempFile(RUN, "out", ".txt").toFile();
        File err = Files.createTempFile(RUN, "err", ".txt").toFile();
        File in = Files.createTempFile(RUN, "in", ".txt").toFile();
        Files.writeString(in.toPath(), stdin);
        Process process = new ProcessBuilder(command)
                .redirectInput(in)
                .redirectOutput(out)
                .redirectError(err)
                .start();
        // a safety net for a hung client, not a timing assumption: every case ends on its own
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("ssh did not end: " + command);
        }
        return new Result(
                process.exitValue(),
                Files.readString(out.toPath(), StandardCharsets.UTF_8),
                Files.readString(err.toPath(), StandardCharsets.UTF_8));
    }

    private static Path keygen(String name) throws Exception {
        Path file = RUN.resolve(name);
        Result made =
                run(List.of("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file.toString()));
        assertThat(made.code()).as(made.err()).isZero();
        return file;
    }

    private static Path tempDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
