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
import java.nio.file.StandardOpenOption;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.ferry.cli.gsi.ProxySigner;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.mover.client.GlobusGridFtpServer;
import org.ferry.mover.testing.GsiTestPki;
import org.ferry.testing.Prerequisites;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * GSI endpoints in the service, against the real tools: a {@code myproxy-server} holding the
 * user's credential (stored with {@code myproxy-init}), {@code globus-gridftp-server} in GSI mode,
 * two {@code ferry-gridftp --gsi} servers (one capped with {@code --data-rate-limit}), a
 * {@code ferry-server} that trusts none of their CAs at first, proxies made by
 * {@code grid-proxy-init}, and the {@code ferry} CLI for everything a user does.
 *
 * <p>In order: the refusals a user sees for an untrusted MyProxy server and a wrong passphrase;
 * activation through MyProxy with trust bootstrap ({@code myproxy-logon -b}) and automatic
 * activation of the other endpoints from that cached credential; the refusals for an unmapped DN
 * and expired proxies; recursive transfers of a tree between globus-gridftp-server and
 * ferry-gridftp in both directions with {@code encrypt_data} (PROT P on every data channel, seen
 * in both servers' command logs) and without, byte-identical; a deactivation mid-task sending the
 * task INACTIVE, keeping the files it moved, and resuming on a delegated-proxy activation; a
 * credential expiring mid-task, INACTIVE, and back after a new activation; and the institution's
 * public endpoints, which a second, non-admin user activates with credentials of their own (MyProxy
 * with trust bootstrap, and a delegated {@code grid-proxy-init} proxy) and moves a tree through as
 * their own identity (both servers' logs name it), the admin's activation untouched.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServiceGsiInteropTest {

    private static final Pattern TASK_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final String UNIT = "ServiceGsi";
    private static final String USER_CN = "Ferry User";
    private static final String STRANGER_CN = "Stranger";
    private static final String MYPROXY_USER = "alice";
    private static final String PASSPHRASE = "alice-myproxy-passphrase";
    private static final String GLOBUS = "admin#globus";
    private static final String FERRY = "admin#ferry";
    private static final String SLOW = "admin#slow";
    private static final String SITE_GLOBUS = "admin#site-globus";
    private static final String SITE_FERRY = "admin#site-ferry";
    /** The second user: Ferry account, MyProxy username and local account in the grid-mapfiles. */
    private static final String COLLEAGUE = "colleague";

    private static final String COLLEAGUE_CN = "Ferry Colleague";
    private static final String COLLEAGUE_PASSPHRASE = "colleague-myproxy-passphrase";
    /** What the slow ferry-gridftp sends per second, over all its data connections. */
    private static final long SLOW_BYTES_PER_SECOND = 1 << 20;

    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path work;
    private GsiTestPki pki;
    private Path globusRoot;
    private Path globusLog;
    private Path ferryRoot;
    private Path ferryLog;
    private Path slowRoot;
    private int globusPort;
    private String ferryGsiUrl;
    /** X509_USER_PROXY of the second user's grid-proxy-init proxy. */
    private Map<String, String> colleagueProxy;

    private MyProxyServerProcess myProxy;
    private FerryServerProcess server;
    private CliRunner cli;
    /** X509_USER_PROXY of the mapped user's grid-proxy-init proxy. */
    private Map<String, String> userProxy;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        GlobusTools.assumeGsiInstalled();
        GlobusTools.assumeMyProxyInstalled();
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        pki = GsiTestPki.create(work.resolve("pki"), UNIT);
        Path hostCert = work.resolve("hostcert.pem");
        Path hostKey = work.resolve("hostkey.pem");
        GsiTestPki.writePemFiles(pki.host(), hostCert, hostKey);

        // globus-gridftp-server logs every command it receives (-d all): which PROT each session asked
        Path globusDir = Files.createDirectories(work.resolve("globus"));
        globusLog = globusDir.resolve("commands.log");
        GlobusGridFtpServer globus = started(GlobusGridFtpServer.startGsi(
                pki, globusDir, USER_CN, List.of("-d", "all", "-l", globusLog.toString())));
        globusRoot = globus.root();
        globusPort = globus.port();
        // the second user may log in too; globus-gridftp-server reads its grid-mapfile per session
        // and runs every GSI session as the one unprivileged account the tests have
        Files.writeString(
                globusDir.resolve("grid-mapfile"),
                pki.gridMapLine(COLLEAGUE_CN, GlobusGridFtpServer.USER),
                StandardOpenOption.APPEND);

        Path gridMap = Files.writeString(
                work.resolve("grid-mapfile"),
                pki.gridMapLine(USER_CN, "ferry") + pki.gridMapLine(COLLEAGUE_CN, COLLEAGUE));
        Path logback = Files.writeString(
                work.resolve("logback-commands.xml"),
                "<configuration><appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">"
                        + "<encoder><pattern>%msg%n</pattern></encoder></appender>"
                        + "<logger name=\"io.netty\" level=\"WARN\"/>"
                        + "<logger name=\"org.ferry.mover.server.pi.ControlChannelHandler\" level=\"DEBUG\"/>"
                        + "<root level=\"INFO\"><appender-ref ref=\"OUT\"/></root></configuration>");
        ferryRoot = Files.createDirectories(work.resolve("ferry-root"));
        ferryLog = work.resolve("ferry-gridftp.log");
        FerryGridFtpProcess ferry = started(FerryGridFtpProcess.startGsi(
                launchers,
                ferryRoot,
                ferryLog,
                hostCert,
                hostKey,
                pki.trustDirectory(),
                gridMap,
                "-Dlogback.configurationFile=" + logback));
        ferryGsiUrl = ferry.gsiUrl();
        slowRoot = Files.createDirectories(work.resolve("slow-root"));
        FerryGridFtpProcess slow = started(FerryGridFtpProcess.startGsi(
                launchers,
                slowRoot,
                work.resolve("slow-gridftp.log"),
                hostCert,
                hostKey,
                pki.trustDirectory(),
                gridMap,
                null,
                "--data-rate-limit",
                Long.toString(SLOW_BYTES_PER_SECOND)));

        Path userCert = work.resolve("usercert.pem");
        Path userKey = work.resolve("userkey.pem");
        GsiTestPki.writePemFiles(pki.user(USER_CN), userCert, userKey);
        myProxy = started(MyProxyServerProcess.start(work.resolve("myproxy"), hostCert, hostKey, pki.trustDirectory()));
        myProxy.store(userCert, userKey, pki.trustDirectory(), MYPROXY_USER, PASSPHRASE);
        userProxy = gridProxyInit(userCert, userKey, "user-proxy.pem");
        Path colleagueDir = Files.createDirectories(work.resolve("colleague"));
        Path colleagueCert = colleagueDir.resolve("usercert.pem");
        Path colleagueKey = colleagueDir.resolve("userkey.pem");
        GsiTestPki.writePemFiles(pki.user(COLLEAGUE_CN), colleagueCert, colleagueKey);
        myProxy.store(colleagueCert, colleagueKey, pki.trustDirectory(), COLLEAGUE, COLLEAGUE_PASSPHRASE);
        colleagueProxy = gridProxyInit(colleagueCert, colleagueKey, "colleague-proxy.pem");

        // the service trusts another CA only: the servers' CA comes from MyProxy's trust roots
        GsiTestPki elsewhere = GsiTestPki.create(work.resolve("elsewhere"), "Elsewhere");
        server = started(FerryServerProcess.start(
                launchers,
                Files.createDirectories(work.resolve("home")),
                work.resolve("server.log"),
                List.of("--ferry.gsi.ca-dir=" + elsewhere.trustDirectory())));
        cli = new CliRunner(launchers, server, work);
        for (String[] endpoint : new String[][] {
            {GLOBUS, "gsiftp://localhost:" + globus.port()}, {FERRY, ferry.gsiUrl()}, {SLOW, slow.gsiUrl()}
        }) {
            expectSuccess(cli.run(
                    60, "endpoint", "add", endpoint[0], "--url", endpoint[1], "--myproxy-server", myProxy.address()));
        }
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

    /** Runs the real grid-proxy-init; returns the environment that names its proxy. */
    private Map<String, String> gridProxyInit(Path cert, Path key, String name, String... options) throws Exception {
        Path proxy = work.resolve(name);
        List<String> command = new ArrayList<>(List.of(GlobusTools.GRID_PROXY_INIT.toString(), "-q"));
        command.addAll(List.of(options));
        GlobusTools.Run init = GlobusTools.run(
                Map.of(
                        "X509_USER_CERT", cert.toString(),
                        "X509_USER_KEY", key.toString(),
                        "X509_USER_PROXY", proxy.toString(),
                        "X509_CERT_DIR", pki.trustDirectory().toString()),
                60,
                command);
        assertThat(init.exitCode()).as(init.output()).isZero();
        return Map.of("X509_USER_PROXY", proxy.toString());
    }

    private CliRunner.Result activateWithMyProxy(String endpoint, String passphrase, boolean bootstrap)
            throws Exception {
        List<String> args = new ArrayList<>(
                List.of("endpoint", "activate", endpoint, "--myproxy", "-U", MYPROXY_USER, "--passphrase-stdin"));
        if (bootstrap) {
            args.add("--myproxy-bootstrap-trust");
        }
        return cli.run(120, Map.of(), passphrase + "\n", args.toArray(String[]::new));
    }

    @Test
    @Order(1)
    void anUntrustedMyProxyServerAndAWrongPassphraseAreRefusedWithTheirReasons() throws Exception {
        CliRunner.Result untrusted = activateWithMyProxy(GLOBUS, PASSPHRASE, false);
        assertThat(untrusted.exitCode()).as(untrusted.describe()).isEqualTo(1);
        assertThat(untrusted.stderr())
                .contains("Error: ClientError.ActivationFailed: Cannot trust MyProxy server " + myProxy.address())
                .contains("--myproxy-bootstrap-trust");

        CliRunner.Result wrong = activateWithMyProxy(GLOBUS, "not-the-passphrase", true);
        assertThat(wrong.exitCode()).as(wrong.describe()).isEqualTo(1);
        assertThat(wrong.stderr())
                .contains("Error: ClientError.ActivationFailed: ERROR from myproxy-server " + myProxy.address())
                .contains("invalid credential passphrase")
                .doesNotContain("not-the-passphrase");
        assertThat(expectSuccess(cli.run(60, "endpoint", "show", GLOBUS)).stdout())
                .containsPattern("Activated: +false");
        assertThat(server.output()).doesNotContain(PASSPHRASE).doesNotContain("not-the-passphrase");
    }

    @Test
    @Order(2)
    void activationThroughMyProxyBootstrapsTrustAndCachesTheCredential() throws Exception {
        CliRunner.Result activated = activateWithMyProxy(GLOBUS, PASSPHRASE, true);
        assertThat(expectSuccess(activated).stdout())
                .contains("Activated.MyProxyCredential")
                .contains(pki.dn(USER_CN));
        // the others take the credential cached from the same MyProxy server (automatic activation)
        for (String endpoint : List.of(FERRY, SLOW)) {
            assertThat(expectSuccess(cli.run(60, "endpoint", "activate", endpoint))
                            .stdout())
                    .as(endpoint)
                    .contains("AutoActivated.CachedCredential");
        }
        String shown = expectSuccess(cli.run(60, "endpoint", "show", GLOBUS)).stdout();
        assertThat(shown)
                .containsPattern("Activated: +true")
                .containsPattern("Expires In: +1[01]h \\d+m")
                .containsPattern("Subject: +" + Pattern.quote(pki.dn(USER_CN)));
        JsonNode document = json.readTree(expectSuccess(cli.run(60, "-F", "json", "endpoint", "show", GLOBUS))
                .stdout());
        assertThat(document.path("expires_in").asLong()).isBetween(10L * 3600, 12L * 3600);
        assertThat(server.output()).doesNotContain(PASSPHRASE);

        Files.writeString(ferryRoot.resolve("hello.txt"), "hello over GSI\n");
        assertThat(expectSuccess(cli.run(60, "ls", FERRY + ":/")).stdout()).contains("hello.txt");
    }

    @Test
    @Order(3)
    void anUnmappedDnAndExpiredProxiesAreRefusedWithTheirReasons() throws Exception {
        Path strangerCert = work.resolve("strangercert.pem");
        Path strangerKey = work.resolve("strangerkey.pem");
        GsiTestPki.writePemFiles(pki.user(STRANGER_CN), strangerCert, strangerKey);
        Map<String, String> stranger = gridProxyInit(strangerCert, strangerKey, "stranger-proxy.pem");
        CliRunner.Result unmapped = cli.run(120, stranger, null, "endpoint", "activate", FERRY, "--delegate-proxy");
        assertThat(unmapped.exitCode()).as(unmapped.describe()).isEqualTo(1);
        assertThat(unmapped.stderr())
                .contains("ClientError.ActivationFailed")
                .contains("refused the credential of " + pki.dn(STRANGER_CN))
                .contains("530");
        // the endpoint keeps the credential it had
        assertThat(expectSuccess(cli.run(60, "endpoint", "show", FERRY)).stdout())
                .containsPattern("Subject: +" + Pattern.quote(pki.dn(USER_CN)));

        // an expired proxy file: the CLI refuses to delegate from it
        KeyPair proxyKeys = rsa();
        GsiCredential user = pki.user(
                USER_CN, Instant.now().minus(Duration.ofHours(3)), Instant.now().plus(Duration.ofDays(1)));
        String expiredChain = ProxySigner.sign(
                new ProxySigner.Credential(user.privateKey(), user.chain()),
                publicKeyPem(proxyKeys),
                Duration.ofMinutes(1),
                Instant.now().minus(Duration.ofHours(2)));
        Path expiredFile = work.resolve("expired-proxy.pem");
        Files.writeString(expiredFile, proxyFile(expiredChain, proxyKeys));
        CliRunner.Result expiredLocally =
                cli.run(120, "endpoint", "activate", FERRY, "--delegate-proxy", expiredFile.toString());
        assertThat(expiredLocally.exitCode()).as(expiredLocally.describe()).isEqualTo(1);
        assertThat(expiredLocally.stderr()).contains("expired").contains("grid-proxy-init");
        // no proxy file at all: a message saying what to do, not a stack trace
        Path noProxy = work.resolve("no-such-proxy.pem");
        CliRunner.Result missing = cli.run(120, "endpoint", "activate", FERRY, "--delegate-proxy", noProxy.toString());
        assertThat(missing.exitCode()).as(missing.describe()).isEqualTo(1);
        assertThat(missing.stderr())
                .contains("no readable proxy certificate at " + noProxy)
                .contains("grid-proxy-init")
                .doesNotContain("Exception");

        // and the service refuses an expired proxy that reaches it anyway
        JsonNode requirements = api("GET", "/v0.10/endpoint/" + encode(FERRY) + "/activation_requirements", null);
        String serviceKey = null;
        for (JsonNode requirement : requirements.path("DATA")) {
            if (requirement.path("name").asString("").equals("public_key")) {
                serviceKey = requirement.path("value").asString();
            }
        }
        assertThat(serviceKey).isNotNull();
        String expiredForService = ProxySigner.sign(
                new ProxySigner.Credential(user.privateKey(), user.chain()),
                serviceKey,
                Duration.ofMinutes(1),
                Instant.now().minus(Duration.ofHours(2)));
        ObjectNode filled = (ObjectNode) requirements.deepCopy();
        for (JsonNode requirement : filled.path("DATA")) {
            if (requirement.path("name").asString("").equals("proxy_chain")) {
                ((ObjectNode) requirement).put("value", expiredForService);
            }
        }
        JsonNode refused = api("POST", "/v0.10/endpoint/" + encode(FERRY) + "/activate", filled);
        assertThat(refused.path("code").asString()).isEqualTo("ClientError.ActivationFailed");
        assertThat(refused.path("message").asString())
                .contains("The delegated proxy is not valid")
                .contains("expired");
    }

    @Test
    @Order(4)
    void anEncryptedRecursiveTransferBetweenGlobusAndFerryIsByteIdenticalBothWays() throws Exception {
        Path tree = globusRoot.resolve("tree");
        TestTrees.generateAscii(tree, 120, new long[] {3L << 20, 9L << 20, 20L << 20}, 20261125L);
        GlobusGridFtpServer.chown(tree);
        Map<String, String> expected = TreeDigest.of(tree);
        long globusProtP = count(globusLog, "[CLIENT]: PROT P");
        long ferryProtP = count(ferryLog, "<- PROT P");

        JsonNode there = transfer(GLOBUS + ":" + tree, FERRY + ":/tree-copy", "--encrypt-data");
        assertThat(there.path("encrypt_data").asBoolean()).isTrue();
        assertThat(TreeDigest.of(ferryRoot.resolve("tree-copy"))).isEqualTo(expected);
        JsonNode back =
                transfer(FERRY + ":/tree-copy", GLOBUS + ":" + globusRoot.resolve("tree-back"), "--encrypt-data");
        assertThat(TreeDigest.of(globusRoot.resolve("tree-back"))).isEqualTo(expected);
        assertThat(back.path("files_transferred").asLong())
                .isEqualTo(
                        expected.values().stream().filter(v -> !v.equals("dir")).count());
        // every data channel of both tasks was private: both servers were asked for PROT P, never C
        assertThat(count(globusLog, "[CLIENT]: PROT P")).isGreaterThan(globusProtP);
        assertThat(count(ferryLog, "<- PROT P")).isGreaterThan(ferryProtP);
        assertThat(Files.readString(globusLog)).doesNotContain("[CLIENT]: PROT C");
        assertThat(Files.readString(ferryLog)).doesNotContain("<- PROT C").doesNotContain("<- DCAU N");

        JsonNode plain = transfer(GLOBUS + ":" + tree, FERRY + ":/tree-plain");
        assertThat(plain.path("encrypt_data").asBoolean()).isFalse();
        assertThat(TreeDigest.of(ferryRoot.resolve("tree-plain"))).isEqualTo(expected);
    }

    @Test
    @Order(5)
    void aDeactivationMidTaskGoesInactiveKeepsWhatMovedAndResumesOnActivation() throws Exception {
        Path tree = slowRoot.resolve("deactivated");
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 40; i++) {
            byte[] data = new byte[10_000 + i];
            random.nextBytes(data);
            Files.write(Files.createDirectories(tree.resolve("small")).resolve(String.format("s%02d.bin", i)), data);
        }
        byte[] big = new byte[(int) (24 * SLOW_BYTES_PER_SECOND)];
        random.nextBytes(big);
        Files.write(tree.resolve("big.bin"), big);
        Map<String, String> expected = TreeDigest.of(tree);

        String taskId = submit(SLOW + ":/deactivated", FERRY + ":/deactivated", "--encrypt-data");
        JsonNode moving = awaitTask(taskId, t -> t.path("files_transferred").asLong() >= 10, "10 files moved");
        assertThat(moving.path("status").asString()).isEqualTo("ACTIVE");
        // through the API, at once (a CLI process would take its start-up time of the transfer's window)
        JsonNode deactivated = api("POST", "/v0.10/endpoint/" + encode(SLOW) + "/deactivate", json.createObjectNode());
        assertThat(deactivated.path("code").asString()).isEqualTo("Deactivated");
        JsonNode inactive = awaitTask(taskId, t -> t.path("status").asString().equals("INACTIVE"), "INACTIVE");
        long moved = inactive.path("files_transferred").asLong();
        assertThat(moved).isGreaterThanOrEqualTo(10);
        assertThat(events(taskId)).anySatisfy(e -> {
            assertThat(e.path("code").asString()).isEqualTo("NO_CREDENTIALS");
            assertThat(e.path("description").asString())
                    .contains(SLOW + " was deactivated")
                    .contains("resumes by itself");
        });
        Map<String, String> stampsWhileInactive = stamps(ferryRoot.resolve("deactivated"));

        // activated again with a delegated proxy of the user's grid-proxy-init proxy: the task resumes
        assertThat(expectSuccess(cli.run(120, userProxy, null, "endpoint", "activate", SLOW, "--delegate-proxy"))
                        .stdout())
                .contains("Activated.DelegatedProxy");
        JsonNode done = awaitTask(taskId, t -> !t.path("status").asString().matches("ACTIVE|INACTIVE"), "the end");
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(TreeDigest.of(ferryRoot.resolve("deactivated"))).isEqualTo(expected);
        assertThat(events(taskId))
                .anySatisfy(e -> assertThat(e.path("code").asString()).isEqualTo("RESUMED"));
        Map<String, String> stampsAfter = stamps(ferryRoot.resolve("deactivated"));
        long untouched = stampsWhileInactive.entrySet().stream()
                .filter(e -> e.getValue().equals(stampsAfter.get(e.getKey())))
                .count();
        assertThat(untouched)
                .as("files moved before INACTIVE and not sent again")
                .isGreaterThanOrEqualTo(moved);
    }

    @Test
    @Order(6)
    void aCredentialExpiringMidTaskGoesInactiveAndBackAfterANewActivation() throws Exception {
        Path tree = slowRoot.resolve("expiring");
        byte[] data = new byte[(int) (24 * SLOW_BYTES_PER_SECOND)];
        new SplittableRandom(6).nextBytes(data);
        Files.write(Files.createDirectories(tree).resolve("long.bin"), data);
        Files.writeString(tree.resolve("short.txt"), "short\n");
        Map<String, String> expected = TreeDigest.of(tree);

        // a proxy that lives 30 s, delegated to the service: it expires (less the service's 10 s
        // margin) well before 24 MiB at 1 MiB/s have moved
        GsiCredential shortLived =
                pki.proxy(USER_CN, ProxyRequest.impersonation().withLifetime(Duration.ofSeconds(30)));
        Path shortFile = work.resolve("short-proxy.pem");
        PemFiles.writeCredential(shortLived, shortFile);
        expectSuccess(cli.run(120, "endpoint", "activate", SLOW, "--delegate-proxy", shortFile.toString()));

        String taskId = submit(SLOW + ":/expiring", FERRY + ":/expiring");
        JsonNode inactive = awaitTask(taskId, t -> t.path("status").asString().equals("INACTIVE"), "INACTIVE");
        assertThat(inactive.path("nice_status").asString()).isEqualTo("NO_CREDENTIALS");
        assertThat(events(taskId)).anySatisfy(e -> {
            assertThat(e.path("code").asString()).isEqualTo("NO_CREDENTIALS");
            assertThat(e.path("description").asString()).contains(SLOW).contains("activate");
        });
        assertThat(expectSuccess(cli.run(60, "status", taskId)).stdout()).contains("INACTIVE");

        CliRunner.Result again = activateWithMyProxy(SLOW, PASSPHRASE, false);
        assertThat(expectSuccess(again).stdout()).contains("Activated.MyProxyCredential");
        JsonNode done = awaitTask(taskId, t -> !t.path("status").asString().matches("ACTIVE|INACTIVE"), "the end");
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(TreeDigest.of(ferryRoot.resolve("expiring"))).isEqualTo(expected);

        // the CLI's deactivate: the credential is gone, the endpoint shows it
        assertThat(expectSuccess(cli.run(60, "endpoint", "deactivate", SLOW)).stdout())
                .contains("deactivated");
        assertThat(expectSuccess(cli.run(60, "endpoint", "show", SLOW)).stdout())
                .containsPattern("Activated: +false");
    }

    @Test
    @Order(7)
    void anotherUserActivatesThePublicEndpointsWithTheirOwnCredentialAndMovesDataAsThemselves() throws Exception {
        // the institution's admin publishes the two servers as public endpoints and activates them
        for (String[] endpoint :
                new String[][] {{SITE_GLOBUS, "gsiftp://localhost:" + globusPort}, {SITE_FERRY, ferryGsiUrl}}) {
            expectSuccess(cli.run(
                    60,
                    "endpoint",
                    "add",
                    endpoint[0],
                    "--url",
                    endpoint[1],
                    "--myproxy-server",
                    myProxy.address(),
                    "--public"));
            assertThat(expectSuccess(cli.run(60, "endpoint", "activate", endpoint[0]))
                            .stdout())
                    .contains("AutoActivated.CachedCredential");
        }
        Map<String, JsonNode> ownerBefore = new HashMap<>();
        for (String endpoint : List.of(SITE_GLOBUS, SITE_FERRY)) {
            ownerBefore.put(endpoint, api("GET", "/v0.10/endpoint/" + encode(endpoint), null));
            assertThat(ownerBefore.get(endpoint).path("activation_subject").asString())
                    .isEqualTo(pki.dn(USER_CN));
        }

        // a non-admin user with a FERRY_HOME of their own, logged in with their password
        expectSuccess(cli.run(60, Map.of(), "colleague-password\n", "user", "add", COLLEAGUE, "--password-stdin"));
        Map<String, String> colleague = Map.of(
                "FERRY_HOME",
                Files.createDirectories(work.resolve("colleague-home")).toString());
        expectSuccess(
                cli.run(60, colleague, "colleague-password\n", "login", "--username", COLLEAGUE, "--password-stdin"));
        assertThat(expectSuccess(cli.run(60, colleague, null, "whoami")).stdout())
                .contains(COLLEAGUE);
        assertThat(expectSuccess(cli.run(60, colleague, null, "endpoint", "show", SITE_GLOBUS))
                        .stdout())
                .as("the admin's activation is the admin's own")
                .containsPattern("Activated: +false");

        // they activate one with their MyProxy credential (trusting the server's CA on first use)
        // and the other with a proxy delegated from their own grid-proxy-init proxy
        CliRunner.Result byMyProxy = cli.run(
                120,
                colleague,
                COLLEAGUE_PASSPHRASE + "\n",
                "endpoint",
                "activate",
                SITE_GLOBUS,
                "--myproxy",
                "-U",
                COLLEAGUE,
                "--passphrase-stdin",
                "--myproxy-bootstrap-trust");
        assertThat(expectSuccess(byMyProxy).stdout())
                .contains("Activated.MyProxyCredential")
                .contains(pki.dn(COLLEAGUE_CN));
        Map<String, String> colleagueWithProxy = new HashMap<>(colleague);
        colleagueWithProxy.putAll(colleagueProxy);
        assertThat(expectSuccess(cli.run(
                                120, colleagueWithProxy, null, "endpoint", "activate", SITE_FERRY, "--delegate-proxy"))
                        .stdout())
                .contains("Activated.DelegatedProxy");
        for (String endpoint : List.of(SITE_GLOBUS, SITE_FERRY)) {
            assertThat(expectSuccess(cli.run(60, colleague, null, "endpoint", "show", endpoint))
                            .stdout())
                    .as(endpoint)
                    .containsPattern("Activated: +true")
                    .containsPattern("Subject: +" + Pattern.quote(pki.dn(COLLEAGUE_CN)));
        }

        // their transfer from globus-gridftp-server to ferry-gridftp, as themselves
        Path tree = globusRoot.resolve("colleague-tree");
        TestTrees.generateAscii(tree, 30, new long[] {2L << 20, 5L << 20}, 20261127L);
        GlobusGridFtpServer.chown(tree);
        Map<String, String> expected = TreeDigest.of(tree);
        long ferryLoginsBefore = count(ferryLog, pki.dn(COLLEAGUE_CN) + " authenticated by GSI");
        String globusLogin = "DN " + pki.dn(COLLEAGUE_CN) + " successfully authorized";
        long globusLoginsBefore = count(globusLog, globusLogin);
        String taskId = expectSuccess(cli.run(
                        60,
                        colleague,
                        null,
                        "-F",
                        "unix",
                        "transfer",
                        SITE_GLOBUS + ":" + tree,
                        SITE_FERRY + ":/colleague-copy",
                        "--recursive"))
                .stdout()
                .trim();
        assertThat(taskId).matches(TASK_ID);
        CliRunner.Result waited = cli.run(
                300, colleague, null, "-F", "json", "wait", taskId, "--timeout", "240", "--polling-interval", "0.2");
        assertThat(waited.exitCode())
                .as("ferry wait " + taskId + ": " + waited.describe() + "\nevents:\n"
                        + cli.run(60, "events", taskId).stdout())
                .isZero();
        JsonNode task = json.readTree(waited.stdout());
        assertThat(task.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.path("owner_string").asString()).isEqualTo(COLLEAGUE);
        assertThat(TreeDigest.of(ferryRoot.resolve("colleague-copy"))).isEqualTo(expected);

        // both servers saw the second user's own identity, mapped to their account
        assertThat(count(ferryLog, pki.dn(COLLEAGUE_CN) + " authenticated by GSI"))
                .isGreaterThan(ferryLoginsBefore);
        assertThat(Files.readString(ferryLog, StandardCharsets.ISO_8859_1))
                .containsPattern(
                        Pattern.quote(pki.dn(COLLEAGUE_CN)) + " authenticated by GSI .*, mapped to " + COLLEAGUE);
        assertThat(count(globusLog, globusLogin)).isGreaterThan(globusLoginsBefore);

        // the admin's activations are as they were: same identity, same end
        for (String endpoint : List.of(SITE_GLOBUS, SITE_FERRY)) {
            JsonNode ownerAfter = api("GET", "/v0.10/endpoint/" + encode(endpoint), null);
            assertThat(ownerAfter.path("activated").asBoolean()).as(endpoint).isTrue();
            assertThat(ownerAfter.path("activation_subject").asString()).isEqualTo(pki.dn(USER_CN));
            assertThat(ownerAfter.path("expire_time").asString())
                    .isEqualTo(ownerBefore.get(endpoint).path("expire_time").asString());
        }
    }

    /**
     * The multi-user flavour (Globus Connect Multi-User; docs/deployment.md "A multi-user endpoint
     * (GCMU)"), each step as documented: {@code ferry-gridftp online-ca} makes the site's online CA
     * and the host credential; a real {@code myproxy-server} signs with that CA after a PAM login
     * ({@code pam_unix}: the site account's own password) and maps the account to its DN with the
     * grid-mapfile that {@code ferry-gridftp --gsi} reads too; the service activates the endpoint
     * with the account's name and password (a wrong password is refused with MyProxy's reason) and
     * holds a certificate of at most 12 hours for that account, with which a file moves byte for
     * byte. Root only (a site account and a PAM service of the run's own, removed at the end).
     */
    @Test
    @Order(99)
    void aSiteAccountActivatesAMultiUserEndpointThroughTheOnlineCa() throws Exception {
        Prerequisites.require(
                "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/sbin/useradd")),
                "the multi-user endpoint case needs root and useradd (a site account of its own)");
        Launchers launchers = Launchers.fromBuild();
        Path site = Files.createDirectories(work.resolve("gcmu"));
        Path hostCert = site.resolve("hostcert.pem");
        Path hostKey = site.resolve("hostkey.pem");
        // 1. the site's online CA and the host credential of its servers
        List<String> onlineCa = new ArrayList<>(launchers.ferryGridFtp());
        onlineCa.addAll(List.of(
                "online-ca",
                "--dir",
                site.resolve("ca").toString(),
                "--subject",
                "/O=Example University/OU=Research Computing/CN=Example Site CA",
                "--host",
                "localhost",
                "--host-cert",
                hostCert.toString(),
                "--host-key",
                hostKey.toString()));
        GlobusTools.Run made = GlobusTools.run(Map.of(), 120, onlineCa);
        assertThat(made.exitCode()).as(made.output()).isZero();
        assertThat(made.output())
                .contains("A user NAME gets: /O=Example University/OU=Research Computing/CN=NAME")
                .contains("Host credential: /O=Example University/OU=Research Computing/CN=host/localhost");
        Path trust = site.resolve("ca/certificates");

        // 2. a site account (its password is what the user types) and a PAM service for MyProxy
        String account = "fgcmu" + Long.toHexString(System.nanoTime() & 0xffffffL);
        String password = "site-password-of-" + account;
        Path pamService = Path.of("/etc/pam.d/ferry-gcmu-" + account);
        Process useradd = new ProcessBuilder("useradd", "-M", "-s", "/usr/sbin/nologin", account)
                .inheritIO()
                .start();
        assertThat(useradd.waitFor()).isZero();
        try {
            Process chpasswd = new ProcessBuilder("chpasswd").start();
            chpasswd.getOutputStream().write((account + ":" + password + "\n").getBytes(StandardCharsets.UTF_8));
            chpasswd.getOutputStream().close();
            assertThat(chpasswd.waitFor()).isZero();
            Files.writeString(pamService, "auth required pam_unix.so\naccount required pam_unix.so\n");

            // 3. myproxy-server as the online CA; one grid-mapfile for it and the GridFTP server
            String dn = "/O=Example University/OU=Research Computing/CN=" + account;
            Path gridMap = Files.writeString(site.resolve("grid-mapfile"), "\"" + dn + "\" " + account + "\n");
            MyProxyServerProcess ca = started(MyProxyServerProcess.start(
                    site.resolve("myproxy"),
                    hostCert,
                    hostKey,
                    trust,
                    "authorized_retrievers \"*\"\n"
                            + "default_retrievers \"*\"\n"
                            + "pam \"sufficient\"\n"
                            + "pam_id \"" + pamService.getFileName() + "\"\n"
                            + "certificate_issuer_cert \"" + site.resolve("ca/cacert.pem") + "\"\n"
                            + "certificate_issuer_key \"" + site.resolve("ca/private/cakey.pem") + "\"\n"
                            + "certificate_serialfile \"" + site.resolve("myproxy-serial") + "\"\n"
                            + "certificate_mapfile \"" + gridMap + "\"\n"
                            + "max_cert_lifetime 12\n"
                            + "cert_dir \"" + trust + "\"\n"));

            // 4. ferry-gridftp trusting the online CA, mapping with the same grid-mapfile
            Path campusRoot = Files.createDirectories(site.resolve("root"));
            FerryGridFtpProcess campus = started(FerryGridFtpProcess.startGsi(
                    launchers, campusRoot, site.resolve("ferry-gridftp.log"), hostCert, hostKey, trust, gridMap));

            // 5. the service: the endpoint names its MyProxy server; the user activates with the
            // site account's name and password
            String endpoint = "admin#campus";
            expectSuccess(cli.run(
                    60, "endpoint", "add", endpoint, "--url", campus.gsiUrl(), "--myproxy-server", ca.address()));
            CliRunner.Result wrong = activateAsSiteAccount(endpoint, account, "not-the-password");
            assertThat(wrong.exitCode()).as(wrong.describe()).isEqualTo(1);
            assertThat(wrong.stderr()).contains("ClientError.ActivationFailed");
            CliRunner.Result activated = activateAsSiteAccount(endpoint, account, password);
            assertThat(expectSuccess(activated).stdout())
                    .contains("Activated.MyProxyCredential")
                    .contains(dn);
            JsonNode shown = json.readTree(expectSuccess(cli.run(60, "-F", "json", "endpoint", "show", endpoint))
                    .stdout());
            assertThat(shown.path("activation_subject").asString()).startsWith(dn);
            assertThat(shown.path("expires_in").asLong())
                    .as("a short-lived certificate: max_cert_lifetime 12")
                    .isBetween(1L, 12L * 3600);
            assertThat(server.output()).doesNotContain(password);

            Path in = Files.createDirectories(campusRoot.resolve("in"));
            Files.write(in.resolve("data.bin"), ConnectNamespaceTest.random(3 << 20, 33));
            transfer(endpoint + ":/in", endpoint + ":/out");
            assertThat(TreeDigest.of(campusRoot.resolve("out"))).isEqualTo(TreeDigest.of(in));
            assertThat(Files.readString(site.resolve("ferry-gridftp.log")))
                    .contains(dn + " authenticated by GSI")
                    .contains("mapped to " + account);
        } finally {
            Files.deleteIfExists(pamService);
            new ProcessBuilder("userdel", account).inheritIO().start().waitFor();
        }
    }

    // ---- helpers ----

    /** {@code ferry endpoint activate ENDPOINT --myproxy -U ACCOUNT}, the password on stdin, trust bootstrapped. */
    private CliRunner.Result activateAsSiteAccount(String endpoint, String account, String password) throws Exception {
        return cli.run(
                120,
                Map.of(),
                password + "\n",
                "endpoint",
                "activate",
                endpoint,
                "--myproxy",
                "-U",
                account,
                "--passphrase-stdin",
                "--myproxy-bootstrap-trust");
    }

    private String submit(String source, String destination, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-F", "unix", "transfer", source, destination, "--recursive"));
        args.addAll(List.of(options));
        String taskId =
                expectSuccess(cli.run(60, args.toArray(String[]::new))).stdout().trim();
        assertThat(taskId).matches(TASK_ID);
        return taskId;
    }

    private JsonNode transfer(String source, String destination, String... options) throws Exception {
        String taskId = submit(source, destination, options);
        CliRunner.Result waited =
                cli.run(300, "-F", "json", "wait", taskId, "--timeout", "240", "--polling-interval", "0.2");
        assertThat(waited.exitCode())
                .as("ferry wait " + taskId + ": " + waited.describe() + "\nevents:\n"
                        + cli.run(60, "events", taskId).stdout())
                .isZero();
        JsonNode task = json.readTree(waited.stdout());
        assertThat(task.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(task.path("faults").asLong()).as("faults of " + taskId).isZero();
        return task;
    }

    /** Polls the task (through the CLI's JSON) until {@code condition} holds; fails after 180 s. */
    private JsonNode awaitTask(String taskId, Predicate<JsonNode> condition, String what) throws Exception {
        AtomicReference<JsonNode> task = new AtomicReference<>();
        try {
            return Awaitility.await("task " + taskId + ": " + what)
                    .atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> {
                                task.set(api("GET", "/v0.10/task/" + taskId, null));
                                return task.get();
                            },
                            condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("task " + taskId + " never reached " + what + ": " + task.get() + "\nevents:\n"
                    + cli.run(60, "events", taskId).stdout());
        }
    }

    private List<JsonNode> events(String taskId) throws Exception {
        List<JsonNode> list = new ArrayList<>();
        api("GET", "/v0.10/task/" + taskId + "/event_list?limit=1000", null)
                .path("DATA")
                .forEach(list::add);
        return list;
    }

    private JsonNode api(String method, String path, JsonNode body) throws Exception {
        String token = Files.readString(server.ferryHome().resolve("token")).strip();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.apiUrl() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(120));
        request.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return json.readTree(response.body());
    }

    private static String encode(String endpoint) {
        return endpoint.replace("#", "%23");
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static String publicKeyPem(KeyPair keys) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    /** A proxy file in grid-proxy-init's layout: the first certificate, its key, the rest of the chain. */
    private static String proxyFile(String chainPem, KeyPair keys) throws IOException {
        int second = chainPem.indexOf("-----BEGIN CERTIFICATE-----", 1);
        return chainPem.substring(0, second) + PemFiles.toPem(List.of(keys.getPrivate())) + chainPem.substring(second);
    }

    private static long count(Path log, String text) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(l -> l.contains(text)).count();
        }
    }

    /** @return regular file (relative path) to inode and ctime: both change when a server writes the file */
    private static Map<String, String> stamps(Path root) throws IOException {
        Map<String, String> stamps = new HashMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isRegularFile(p)) {
                    stamps.put(
                            root.relativize(p).toString(),
                            Files.getAttribute(p, "unix:ino") + "/" + Files.getAttribute(p, "unix:ctime"));
                }
            }
        }
        return stamps;
    }

    private static CliRunner.Result expectSuccess(CliRunner.Result result) {
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result;
    }
}
