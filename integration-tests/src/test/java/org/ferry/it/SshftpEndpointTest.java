package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.it.infra.SshdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sshftp://} endpoints in the service (issue 37 item 4), against a real OpenSSH sshd on
 * loopback whose test user runs {@code ferry-gridftp --ssh} (made the remote side with
 * {@code ferry-gridftp enable-sshftp}): an endpoint registered with the user's private key (stored
 * sealed) and the host key pinned at creation, browsed with {@code ferry ls}, and trees moved with
 * {@code ferry transfer} between it and a plain {@code ftp://} ferry-gridftp both ways, byte-identical.
 * Refused, changing nothing: a pinned host key the server does not have (the listing and a mkdir
 * fail naming the host key, no directory made), a key the server does not authorize (the same,
 * naming the authentication; a transfer into it fails at once, PERMISSION_DENIED, writing nothing), a key encrypted with a passphrase or no key at all (400 naming
 * {@code ssh_private_key}, no endpoint made), a password instead of a key. The private key
 * appears neither in the endpoint's documents nor in ferry-server's log. An endpoint made without a
 * key is activated by a user with an encrypted SSH key of their own ({@code ferry endpoint activate
 * --ssh-key}), refused for a wrong passphrase, an unauthorized key or a host key that is not the
 * pinned one, and deactivated; another user does the same on the web page's SSH key form (the
 * refusals named there), then lists as their own login; neither the key nor its passphrase reaches
 * the log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SshftpEndpointTest {

    private static final Pattern TASK_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private SshdServer sshd;
    private FerryGridFtpProcess ftp;
    private FerryServerProcess server;
    private CliRunner cli;
    private Path ftpRoot;
    private Path data;
    private Path work;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        this.work = work;
        sshd = SshdServer.start();
        Launchers launchers = Launchers.fromBuild();
        Path launcher = launchers.repoRoot().resolve("bin/ferry-gridftp");
        sshd.enableFerrySshftp(launcher);
        data = Files.createDirectories(sshd.directory().resolve("data"));
        TestTrees.generateAscii(data.resolve("tree"), 30, new long[] {300_000}, 20261128L);
        sshd.chown(data);
        ftpRoot = Files.createDirectories(work.resolve("ftp"));
        ftp = FerryGridFtpProcess.start(launchers, ftpRoot, work.resolve("ftp.log"));
        server = FerryServerProcess.start(launchers, work.resolve("home"), work.resolve("server.log"));
        cli = new CliRunner(launchers, server, work);
        ok(cli.run(60, "endpoint", "add", "admin#ftp", "--url", "ftp://127.0.0.1:" + ftp.port()));
        ok(addSsh("admin#ssh", sshd.clientKey().toString()));
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (ftp != null) {
            ftp.close();
        }
        if (sshd != null) {
            sshd.close();
        }
    }

    @Test
    @Order(1)
    void theHostKeyIsPinnedAtCreationAndTheEndpointIsBrowsable() throws Exception {
        String servers = ok(cli.run(60, "endpoint", "server", "list", "admin#ssh", "-F", "json"))
                .stdout();
        String hostKey = Files.readString(sshd.hostPublicKey()).strip().split("\\s+")[1];
        assertThat(servers).contains(hostKey).doesNotContain("BEGIN OPENSSH PRIVATE KEY");
        String listing =
                ok(cli.run(60, "ls", "admin#ssh:" + data.resolve("tree"))).stdout();
        assertThat(listing).isNotBlank();
        assertThat(ok(cli.run(60, "endpoint", "show", "admin#ssh", "-F", "json"))
                        .stdout())
                .doesNotContain("PRIVATE KEY");
    }

    @Test
    @Order(2)
    void treesMoveBetweenSshftpAndFtpBothWays() throws Exception {
        String down = submit("transfer", "-r", "admin#ssh:" + data.resolve("tree"), "admin#ftp:/down");
        ok(cli.run(300, "wait", down, "--timeout", "280"));
        assertThat(TreeDigest.of(ftpRoot.resolve("down"))).isEqualTo(TreeDigest.of(data.resolve("tree")));

        String up = submit("transfer", "-r", "admin#ftp:/down", "admin#ssh:" + data.resolve("up"));
        ok(cli.run(300, "wait", up, "--timeout", "280"));
        assertThat(TreeDigest.of(data.resolve("up"))).isEqualTo(TreeDigest.of(data.resolve("tree")));
    }

    @Test
    @Order(3)
    void aWrongHostKeyOrLoginKeyIsRefusedAndChangesNothing() throws Exception {
        // pin a key the server does not have (the client's own public key): nothing is sent
        String stranger = Files.readString(Path.of(sshd.clientKey() + ".pub")).strip();
        ok(addSsh("admin#wrong-host", sshd.clientKey().toString(), "--ssh-host-key", stranger));
        CliRunner.Result refused = cli.run(60, "ls", "admin#wrong-host:" + data);
        assertThat(refused.exitCode()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.stderr()).contains("host key").contains("not the pinned key");
        Path notMade = data.resolve("not-made");
        assertThat(cli.run(60, "mkdir", "admin#wrong-host:" + notMade).exitCode())
                .isEqualTo(1);
        assertThat(notMade).doesNotExist();

        // a well-formed key the server does not authorize (the pinned host key is right)
        Path otherKey = keygen("other_key", "");
        ok(addSsh("admin#wrong-key", otherKey.toString()));
        CliRunner.Result denied = cli.run(60, "ls", "admin#wrong-key:" + data);
        assertThat(denied.exitCode()).as(denied.describe()).isEqualTo(1);
        assertThat(denied.stderr()).contains("refused every key offered");
        assertThat(cli.run(60, "mkdir", "admin#wrong-key:" + notMade).exitCode())
                .isEqualTo(1);
        assertThat(notMade).doesNotExist();

        // a task into it fails at once, a refusal rather than a broken connection to retry
        String task = submit("transfer", "-r", "admin#ftp:/down", "admin#wrong-key:" + notMade);
        CliRunner.Result waited = cli.run(200, "wait", task, "--timeout", "180", "--timeout-exit-code", "2");
        assertThat(waited.exitCode())
                .as("FAILED, not still retrying: " + waited.describe())
                .isEqualTo(1);
        String status = ok(cli.run(60, "status", task, "-F", "json")).stdout();
        assertThat(status).contains("FAILED").contains("PERMISSION_DENIED");
        assertThat(notMade).doesNotExist();
    }

    @Test
    @Order(4)
    void anEncryptedKeyNoKeyAndAPasswordAreRefusedByNameCreatingNothing() throws Exception {
        CliRunner.Result encrypted = addSsh(
                "admin#encrypted", keygen("encrypted_key", "a passphrase").toString());
        assertThat(encrypted.exitCode()).as(encrypted.describe()).isEqualTo(1);
        assertThat(encrypted.stderr()).contains("ssh_private_key").contains("encrypted");

        CliRunner.Result badKey = cli.run(
                60,
                Map.of(),
                "not a key\n",
                "endpoint",
                "add",
                "admin#bad-key",
                "--url",
                "sshftp://127.0.0.1:" + sshd.port(),
                "--username",
                sshd.user(),
                "--ssh-key",
                "-");
        assertThat(badKey.exitCode()).as(badKey.describe()).isEqualTo(1);
        assertThat(badKey.stderr()).contains("ssh_private_key");

        CliRunner.Result password = cli.run(
                60,
                "endpoint",
                "add",
                "admin#password",
                "--url",
                "sshftp://127.0.0.1:" + sshd.port(),
                "--username",
                sshd.user(),
                "--password",
                "secret");
        assertThat(password.exitCode()).as(password.describe()).isEqualTo(1);
        assertThat(password.stderr()).contains("password");
        for (String name : List.of("admin#encrypted", "admin#bad-key", "admin#password")) {
            assertThat(cli.run(60, "endpoint", "show", name).exitCode())
                    .as(name + " not made")
                    .isEqualTo(1);
        }
    }

    @Test
    @Order(5)
    void thePrivateKeyIsNeverShownNorLogged() throws Exception {
        String show =
                ok(cli.run(60, "endpoint", "show", "admin#ssh", "-F", "json")).stdout();
        String list = ok(cli.run(60, "endpoint", "list", "-F", "json")).stdout();
        String serverLog = Files.readString(work.resolve("server.log"));
        for (String line : keyBody(sshd.clientKey())) {
            assertThat(show).doesNotContain(line);
            assertThat(list).doesNotContain(line);
            assertThat(serverLog).as("ferry-server's log").doesNotContain(line);
        }
        assertThat(serverLog).doesNotContain("PRIVATE KEY");
    }

    /**
     * An endpoint made without a key: each user activates it with an SSH key of their own (here an
     * encrypted one, authorized on the host), which the service decrypts once with the passphrase,
     * checks by a login through sshd against the pinned host key, and keeps sealed for the
     * activation's lifetime; refused with the reason and nothing kept: a wrong passphrase, a key the
     * host does not authorize, a host whose key is not the pinned one. The activation is that
     * user's alone: another user of the public endpoint is still refused until they activate it on
     * the web page's form (a wrong passphrase, a refused key and a changed host key named there).
     * Deactivation ends it.
     */
    @Test
    @Order(6)
    void aUserActivatesAKeylessEndpointWithAnSshKeyOfTheirOwn() throws Exception {
        String passphrase = "mine-" + Long.toHexString(System.nanoTime());
        Path mine = keygen("my_key", passphrase);
        Files.writeString(
                sshd.directory().resolve("authorized_keys"),
                Files.readString(Path.of(mine + ".pub")),
                StandardOpenOption.APPEND);
        String url = "sshftp://127.0.0.1:" + sshd.port();
        ok(cli.run(120, "endpoint", "add", "admin#ssh-users", "--url", url, "--public"));

        CliRunner.Result notYet = cli.run(60, "ls", "admin#ssh-users:" + data);
        assertThat(notYet.exitCode()).as(notYet.describe()).isEqualTo(1);
        assertThat(notYet.stderr()).contains("not activated").contains("--ssh-key");

        CliRunner.Result wrongPassphrase = activate("admin#ssh-users", mine, "not the passphrase");
        assertThat(wrongPassphrase.exitCode()).as(wrongPassphrase.describe()).isEqualTo(1);
        assertThat(wrongPassphrase.stderr()).contains("passphrase does not decrypt");

        Path stranger = keygen("stranger_key", "");
        CliRunner.Result unauthorized = activate("admin#ssh-users", stranger, null);
        assertThat(unauthorized.exitCode()).as(unauthorized.describe()).isEqualTo(1);
        assertThat(unauthorized.stderr()).contains("refused SSH login").contains("refused every key offered");
        assertThat(cli.run(60, "ls", "admin#ssh-users:" + data).exitCode())
                .as("still not activated")
                .isEqualTo(1);

        String activated = ok(activate("admin#ssh-users", mine, passphrase)).stdout();
        assertThat(activated).contains("Activated.SshKey").contains(sshd.user() + " (SHA256:");
        Matcher expiresIn = Pattern.compile("\"expires_in\"\\s*:\\s*(\\d+)").matcher(activated);
        assertThat(expiresIn.find()).as(activated).isTrue();
        assertThat(Long.parseLong(expiresIn.group(1))).isBetween(3000L, 3600L);
        assertThat(ok(cli.run(60, "ls", "admin#ssh-users:" + data.resolve("tree")))
                        .stdout())
                .isNotBlank();
        String up = submit("transfer", "-r", "admin#ftp:/down", "admin#ssh-users:" + data.resolve("mine"));
        ok(cli.run(300, "wait", up, "--timeout", "280"));
        assertThat(TreeDigest.of(data.resolve("mine"))).isEqualTo(TreeDigest.of(data.resolve("tree")));

        // the activation is the admin's own: another user of the public endpoint is not activated
        ok(cli.run(60, Map.of(), "colleague-password\n", "user", "add", "colleague", "--password-stdin"));
        Map<String, String> colleague = Map.of(
                "FERRY_HOME",
                Files.createDirectories(work.resolve("colleague-home")).toString());
        ok(cli.run(60, colleague, "colleague-password\n", "login", "--username", "colleague", "--password-stdin"));
        CliRunner.Result theirs = cli.run(60, colleague, null, "ls", "admin#ssh-users:" + data);
        assertThat(theirs.exitCode()).as(theirs.describe()).isEqualTo(1);
        assertThat(theirs.stderr()).contains("not activated");

        // the same key and login against a pinned host key the server does not have
        String strangerHost = Files.readString(Path.of(stranger + ".pub")).strip();
        ok(cli.run(
                120,
                "endpoint",
                "add",
                "admin#ssh-users-bad-pin",
                "--url",
                url,
                "--ssh-host-key",
                strangerHost,
                "--public"));
        CliRunner.Result badPin = activate("admin#ssh-users-bad-pin", mine, passphrase);
        assertThat(badPin.exitCode()).as(badPin.describe()).isEqualTo(1);
        assertThat(badPin.stderr()).contains("host key").contains("not the pinned key");

        // the colleague activates on the web page (the same activation, this sshd checking it)
        String wrong = "wrong-" + Long.toHexString(System.nanoTime());
        activateOnThePage(passphrase, wrong, mine, stranger);
        ok(cli.run(60, colleague, null, "ls", "admin#ssh-users:" + data.resolve("tree")));

        ok(cli.run(60, "endpoint", "deactivate", "admin#ssh-users"));
        assertThat(cli.run(60, "ls", "admin#ssh-users:" + data).exitCode())
                .as("deactivated")
                .isEqualTo(1);

        String serverLog = Files.readString(work.resolve("server.log"));
        assertThat(serverLog).as("ferry-server's log").doesNotContain(passphrase);
        assertThat(serverLog).as("ferry-server's log").doesNotContain(wrong);
        for (String line : keyBody(mine)) {
            assertThat(serverLog).as("ferry-server's log").doesNotContain(line);
        }
    }

    /**
     * The colleague signs in to the web pages and activates admin#ssh-users with the form: a wrong
     * passphrase, a key the host does not authorize and (on admin#ssh-users-bad-pin) a host whose
     * key is not the pinned one are refused by name; then the key file with its passphrase works.
     */
    private void activateOnThePage(String passphrase, String wrong, Path mine, Path stranger) throws Exception {
        WebClient web = new WebClient(
                HttpClient.newBuilder()
                        .cookieHandler(new CookieManager())
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build(),
                server.apiUrl());
        assertThat(web.signIn("colleague", "colleague-password").statusCode()).isEqualTo(302);
        String page = web.page("/endpoints");
        String users = endpointId(page, "admin#ssh-users");
        String badPin = endpointId(page, "admin#ssh-users-bad-pin");
        String[] myKey = {"privateKeyFile", "my_key", Files.readString(mine)};
        String[] theirKey = {"privateKeyFile", "stranger_key", Files.readString(stranger)};

        String wrongPassphrase = web.postMultipart(
                "/endpoints/" + users + "/activate-ssh-key", myKey, "username", sshd.user(), "passphrase", wrong);
        assertThat(wrongPassphrase).contains("Wrong passphrase.").doesNotContain(wrong);
        String refused =
                web.postMultipart("/endpoints/" + users + "/activate-ssh-key", theirKey, "username", sshd.user());
        assertThat(refused).contains("Key refused.").contains("refused every key offered");
        String changed = web.postMultipart(
                "/endpoints/" + badPin + "/activate-ssh-key", myKey, "username", sshd.user(), "passphrase", passphrase);
        assertThat(changed).contains("Host key changed.").contains("not the pinned key");
        assertThat(row(changed, "admin#ssh-users")).contains("Not activated");

        String activated = web.postMultipart(
                "/endpoints/" + users + "/activate-ssh-key",
                myKey,
                "username",
                sshd.user(),
                "passphrase",
                passphrase,
                "lifetime",
                "1");
        assertThat(activated).contains("activated with SSH key SHA256:").doesNotContain("could not be reached");
        assertThat(row(activated, "admin#ssh-users")).contains("Activated until");
        assertThat(activated).doesNotContain(passphrase);
    }

    private static String endpointId(String page, String endpoint) {
        Matcher id =
                Pattern.compile("/endpoints/([0-9a-f-]{36})/activate-ssh-key").matcher(row(page, endpoint));
        assertThat(id.find()).as(endpoint + " offers the SSH key form").isTrue();
        return id.group(1);
    }

    /** @return the endpoints table's row of the endpoint */
    private static String row(String page, String endpoint) {
        int at = page.indexOf("data-endpoint=\"" + endpoint + "\"");
        assertThat(at).as(endpoint + " listed").isNotNegative();
        return page.substring(at, page.indexOf("</tr>", at));
    }

    /** {@code ferry endpoint activate NAME --ssh-key KEY}, the passphrase (if any) on standard input. */
    private CliRunner.Result activate(String endpoint, Path key, String passphrase) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "endpoint",
                "activate",
                endpoint,
                "--ssh-key",
                key.toString(),
                "--ssh-user",
                sshd.user(),
                "--ssh-lifetime",
                "1",
                "-F",
                "json"));
        if (passphrase != null) {
            args.add("--ssh-passphrase-stdin");
        }
        return cli.run(120, Map.of(), passphrase == null ? "" : passphrase + "\n", args.toArray(String[]::new));
    }

    /** @return the base64 lines of a private key file, each long enough to be its own */
    private static List<String> keyBody(Path key) throws Exception {
        return Files.readAllLines(key).stream()
                .filter(line -> !line.startsWith("-----") && line.length() >= 32)
                .toList();
    }

    private CliRunner.Result addSsh(String name, String key, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "endpoint",
                "add",
                name,
                "--url",
                "sshftp://127.0.0.1:" + sshd.port(),
                "--username",
                sshd.user(),
                "--ssh-key",
                key));
        args.addAll(List.of(more));
        return cli.run(120, args.toArray(String[]::new));
    }

    /** @return a new Ed25519 private key made by ssh-keygen, encrypted with {@code passphrase} unless empty */
    private Path keygen(String name, String passphrase) throws Exception {
        Path key = work.resolve(name);
        Process keygen = new ProcessBuilder(
                        "ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", key.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(keygen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keygen.waitFor(60, TimeUnit.SECONDS)).as("ssh-keygen ends").isTrue();
        assertThat(keygen.exitValue()).as(output).isZero();
        return key;
    }

    private String submit(String... args) throws Exception {
        String out = ok(cli.run(120, args)).stdout();
        Matcher id = TASK_ID.matcher(out);
        assertThat(id.find()).as(out).isTrue();
        return id.group();
    }

    private static CliRunner.Result ok(CliRunner.Result result) {
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result;
    }
}
