package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/**
 * The web pages in a real browser (Debian's headless Chromium through Selenium) against a real
 * {@code ferry-server} serving HTTPS with a configured key and certificate (the browser trusts
 * that key alone) and two real {@code ferry-gridftp} endpoints: a wrong password, sign-in,
 * endpoints made through the form, both panes of the file manager browsed (into a directory with
 * non-ASCII names and back), a directory made, a recursive transfer submitted whose progress the
 * page receives over server-sent events without reloading until SUCCEEDED, the files compared
 * byte for byte, a second transfer (one big file) showing a current rate above 0 and the time left
 * while it moves, then cancelled from its page, the task list filtered, the file
 * manager on a phone-sized window, sign-out. Every page is checked for controls without a label
 * and saved as a screenshot under {@code target/browser-screenshots/}.
 *
 * <p>The source endpoint is capped at 512 KiB/s, so the transfers take seconds however fast the
 * machine: the task page is open while the first one still runs, and the second is cancelled
 * long before it could end. Every wait is on page state.
 *
 * <p>On the same server and browser, the SSH keys page (issue 37): a key made by {@code ssh-keygen}
 * pasted, listed with the fingerprint {@code ssh-keygen -l} prints, and seen in the REST API; a
 * private key, a line that is no key, an empty field and the same key again refused with the
 * field's error and nothing stored (the private key never shown back); another user neither sees
 * it nor removes it (not found); removed from the page and gone from the API.
 *
 * <p>The optimizer's page (issue 35): two users move files between endpoints of their own, the
 * optimizer deciding every 2 s; one user's page shows her pair, its latest reason and its chart,
 * and nothing of the other user's pair.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrowserTest {

    private static final String PASSWORD = "correct horse 1";

    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path work;
    private Path rootA;
    private Path rootB;
    private FerryGridFtpProcess a;
    private FerryGridFtpProcess b;
    private FerryServerProcess server;
    private Browser browser;
    private SelfSignedTls tls;
    private String url;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        Browser.assumeInstalled();
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        rootA = Files.createDirectories(work.resolve("a"));
        rootB = Files.createDirectories(work.resolve("b"));
        TestTrees.generate(rootA.resolve("tree"), 12, 6L << 20, 16);
        try (RandomAccessFile big =
                new RandomAccessFile(rootA.resolve("huge.bin").toFile(), "rw")) {
            big.setLength(24L << 20);
        }
        a = started(FerryGridFtpProcess.start(
                launchers, rootA, work.resolve("a.log"), 0, "--data-rate-limit", "512K", "--marker-interval", "0.5"));
        b = started(FerryGridFtpProcess.start(launchers, rootB, work.resolve("b.log")));
        // the embedded server over TLS with a configured key and certificate (README "Production deployment")
        tls = SelfSignedTls.create(work.resolve("tls"));
        server = started(FerryServerProcess.start(
                launchers,
                Files.createDirectories(work.resolve("server-home")),
                work.resolve("server.log"),
                List.of(
                        "--ferry.transfer.progress-interval-seconds=1",
                        // decisions within the transfers of the optimizer page's case
                        "--ferry.optimizer.interval=2s",
                        "--server.ssl.certificate=file:" + tls.certificateFile(),
                        "--server.ssl.certificate-private-key=file:" + tls.keyFile())));
        url = server.httpsUrl();
        new WebClient(tls.client(), url)
                .apiOk(
                        "POST",
                        "/v0.10/user",
                        WebClient.bearer(Files.readString(server.ferryHome().resolve("token"))
                                .trim()),
                        "{\"DATA_TYPE\":\"user\",\"username\":\"alice\",\"password\":\"" + PASSWORD + "\"}");
        browser = started(Browser.start(
                work.resolve("chrome-profile"),
                Path.of("target", "browser-screenshots").toAbsolutePath(),
                tls.publicKeySha256()));
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

    @Test
    @Order(1)
    void signInBrowseTransferWatchCancelSignOut() throws Exception {
        try {
            scenario();
        } catch (Throwable failed) {
            browser.failure("failure");
            throw failed;
        }
    }

    private void scenario() throws Exception {
        signIn();
        addEndpoints();
        browseBothPanesAndMakeADirectory();
        String firstTask = transferAndWatchUntilSucceeded();
        assertThat(TreeDigest.of(rootB.resolve("incoming/tree"))).isEqualTo(TreeDigest.of(rootA.resolve("tree")));
        cancelASecondTransfer();
        filterTheTaskList(firstTask);
        phoneSizedFileManager();
        signOut();
    }

    private void signIn() throws IOException {
        browser.get(url + "/files");
        browser.await("the sign-in page", ExpectedConditions.presenceOfElementLocated(By.id("signin-form")));
        checkLabels("sign-in");
        browser.screenshot("01-signin");

        browser.find("#username").sendKeys("alice");
        browser.find("#password").sendKeys("wrong password");
        browser.find("#signin-submit").click();
        WebElement error = browser.await(
                "the wrong password's message", ExpectedConditions.visibilityOfElementLocated(By.id("error-message")));
        assertThat(error.getText()).contains("Wrong user name or password");
        browser.screenshot("02-signin-wrong-password");

        browser.find("#username").clear();
        browser.find("#username").sendKeys("alice");
        browser.find("#password").sendKeys(PASSWORD);
        browser.find("#signin-submit").click();
        browser.await("signed in", ExpectedConditions.presenceOfElementLocated(By.id("signed-in-user")));
        assertThat(browser.find("#signed-in-user").getText()).isEqualTo("alice");
        assertThat(browser.driver().getCurrentUrl()).isEqualTo(url + "/files");
    }

    private void addEndpoints() throws IOException {
        browser.find("#nav-endpoints").click();
        browser.await("the empty endpoint list", ExpectedConditions.presenceOfElementLocated(By.id("no-endpoints")));
        for (String[] endpoint : List.of(new String[] {"a", a.url()}, new String[] {"b", b.url()})) {
            browser.find("#endpoint-new").click();
            browser.await("the endpoint form", ExpectedConditions.presenceOfElementLocated(By.id("endpoint-form")));
            checkLabels("endpoint form");
            browser.find("#name").sendKeys(endpoint[0]);
            browser.find("#url").sendKeys(endpoint[1]);
            browser.find("#description").sendKeys("site " + endpoint[0].toUpperCase());
            browser.find("#endpoint-save").click();
            browser.await(
                    "endpoint " + endpoint[0] + " listed",
                    ExpectedConditions.presenceOfElementLocated(
                            By.cssSelector("tr[data-endpoint='alice#" + endpoint[0] + "']")));
        }
        assertThat(browser.find("[role=status]").getText()).contains("alice#b was created");
        checkLabels("endpoints");
        browser.screenshot("03-endpoints");
    }

    private void browseBothPanesAndMakeADirectory() throws IOException {
        browser.find("#nav-files").click();
        browser.await("the file manager", ExpectedConditions.presenceOfElementLocated(By.id("left-endpoint")));
        // the skip link is the first stop of the keyboard
        new Actions(browser.driver()).sendKeys(Keys.TAB).perform();
        assertThat(browser.driver().switchTo().activeElement().getText()).isEqualTo("Skip to content");

        new Select(browser.find("#left-endpoint")).selectByVisibleText("alice#a");
        browser.find("#left-go").click();
        browser.await("the left listing", ExpectedConditions.presenceOfElementLocated(By.id("left-listing")));
        new Select(browser.find("#right-endpoint")).selectByVisibleText("alice#b");
        browser.find("#right-go").click();
        browser.await("the right listing", ExpectedConditions.presenceOfElementLocated(By.id("right-listing")));
        assertThat(browser.find("#left-heading").getText()).isEqualTo("Left: alice#a");
        assertThat(browser.find("#right-heading").getText()).isEqualTo("Right: alice#b");

        // into a directory, into one named in French, and back up twice; the right pane stays
        browser.find("#left-listing").findElement(By.linkText("tree/")).click();
        awaitCaption("left", "Contents of /tree");
        browser.find("#left-listing").findElement(By.linkText("données été/")).click();
        awaitCaption("left", "Contents of /tree/données été");
        assertThat(browser.find("#left-listing").getText()).contains("日本語 ディレクトリ/");
        browser.find("#left-up").click();
        awaitCaption("left", "Contents of /tree");
        browser.find("#left-up").click();
        awaitCaption("left", "Contents of /");
        assertThat(browser.find("#right-heading").getText()).isEqualTo("Right: alice#b");

        browser.find("#right-mkdir-name").sendKeys("incoming");
        browser.find("#right-mkdir").click();
        browser.await(
                "the directory made",
                ExpectedConditions.presenceOfElementLocated(By.cssSelector("#right-listing tr[data-name='incoming']")));
        assertThat(Files.isDirectory(rootB.resolve("incoming"))).isTrue();
        browser.find("#right-listing").findElement(By.linkText("incoming/")).click();
        awaitCaption("right", "Contents of /incoming");
        checkLabels("file manager");
    }

    private void awaitCaption(String side, String caption) {
        browser.await(
                side + " pane showing " + caption,
                ExpectedConditions.textToBe(By.cssSelector("#" + side + "-listing caption"), caption));
    }

    private String transferAndWatchUntilSucceeded() throws IOException {
        browser.find("#left-listing input[value='tree/']").click();
        browser.find("#label").sendKeys("browser test");
        browser.screenshot("04-file-manager");
        browser.find("#left-transfer").click();
        WebElement link = browser.await(
                "the submitted task's link", ExpectedConditions.elementToBeClickable(By.id("notice-task")));
        link.click();
        WebElement task = browser.await("the task page", ExpectedConditions.presenceOfElementLocated(By.id("task")));
        String taskId = task.getAttribute("data-task-id");
        // 6 MiB from a source capped at 512 KiB/s: still running when its page opens
        assertThat(task.getAttribute("data-status")).isEqualTo("ACTIVE");
        browser.script("window.ferryNotReloaded = 'yes';");
        browser.await("the live stream", ExpectedConditions.attributeToBe(By.id("task"), "data-live", "open"));
        browser.screenshot("05-task-active");
        checkLabels("task");

        browser.await(
                "SUCCEEDED pushed to the page",
                ExpectedConditions.attributeToBe(By.id("task"), "data-status", "SUCCEEDED"));
        assertThat(browser.script("return window.ferryNotReloaded;"))
                .as("the page was not reloaded")
                .isEqualTo("yes");
        assertThat(browser.find("#task-status").getText()).isEqualTo("SUCCEEDED");
        assertThat(Integer.parseInt(browser.find("#task").getAttribute("data-updates")))
                .isPositive();
        assertThat(browser.find("#task-files-transferred").getText())
                .isEqualTo(browser.find("#task-files").getText());
        assertThat(browser.findAll("#event-table tr[data-event-id]").stream()
                        .map(WebElement::getText)
                        .toList())
                .anySatisfy(row -> assertThat(row).contains("SUCCEEDED"));
        assertThat(Integer.parseInt(browser.find("#throughput-chart").getAttribute("data-points")))
                .as("throughput points drawn")
                .isPositive();
        assertThat(browser.findAll("#throughput-chart canvas")).isNotEmpty();
        assertThat(browser.findAll("#cancel-task")).isEmpty();
        assertThat(browser.find("#task-rate").getText()).isEqualTo("—");
        assertThat(browser.find("#task-eta").getText()).isEqualTo("—");
        browser.screenshot("06-task-succeeded");
        return taskId;
    }

    private void cancelASecondTransfer() throws IOException {
        browser.find("#nav-files").click();
        browser.await("the file manager", ExpectedConditions.presenceOfElementLocated(By.id("left-endpoint")));
        new Select(browser.find("#left-endpoint")).selectByVisibleText("alice#a");
        browser.find("#left-go").click();
        browser.await("the left listing", ExpectedConditions.presenceOfElementLocated(By.id("left-listing")));
        new Select(browser.find("#right-endpoint")).selectByVisibleText("alice#b");
        browser.find("#right-go").click();
        browser.await("the right listing", ExpectedConditions.presenceOfElementLocated(By.id("right-listing")));
        browser.find("#left-listing input[value='huge.bin']").click();
        browser.find("#left-transfer").click();
        browser.await("the submitted task's link", ExpectedConditions.elementToBeClickable(By.id("notice-task")))
                .click();
        browser.await("the live stream", ExpectedConditions.attributeToBe(By.id("task"), "data-live", "open"));
        // 24 MiB from the source capped at 512 KiB/s: its bytes in flight (the destination's
        // markers, asked for every second) give a current rate and the time left while it moves
        browser.await(
                "a current rate above 0",
                driver -> Long.parseLong(browser.find("#task-rate").getAttribute("data-bytes-per-second")) > 0);
        assertThat(browser.find("#task-rate").getText()).matches("[0-9.]+ (B|KiB|MiB)/s");
        browser.await(
                "the time left", driver -> browser.find("#task-eta").getText().startsWith("about "));
        assertThat(browser.find("#task-eta").getText()).matches("about \\d+ (s|min \\d+ s|h \\d+ min)");
        assertThat(browser.find("#task-status").getText()).isEqualTo("ACTIVE");
        browser.screenshot("07-task-rate");
        browser.find("#cancel-task").click();
        browser.await("FAILED", ExpectedConditions.textToBe(By.id("task-status"), "FAILED"));
        assertThat(browser.find("#task-fatal").getText()).startsWith("CANCELED: ");
        assertThat(browser.find("[role=status]").getText()).contains("The task was cancelled.");
        assertThat(browser.find("#task-rate").getText()).isEqualTo("—");
        browser.screenshot("07-task-cancelled");
    }

    private void filterTheTaskList(String firstTask) throws IOException {
        browser.find("#nav-tasks").click();
        browser.await("the task list", ExpectedConditions.presenceOfElementLocated(By.id("task-table")));
        assertThat(browser.findAll("#task-table tbody tr")).hasSize(2);
        browser.find("#status-SUCCEEDED").click();
        browser.find("#filter-tasks").click();
        browser.await(
                "the filtered list",
                ExpectedConditions.numberOfElementsToBe(By.cssSelector("#task-table tbody tr"), 1));
        assertThat(browser.find("#task-table tbody tr").getAttribute("data-task"))
                .isEqualTo(firstTask);
        assertThat(browser.find("#task-table tbody tr").getText()).contains("browser test", "SUCCEEDED");
        checkLabels("task list");
        browser.screenshot("08-tasks");
    }

    private void phoneSizedFileManager() throws IOException {
        browser.resize(390, 844);
        browser.find("#nav-files").click();
        browser.await("the file manager", ExpectedConditions.presenceOfElementLocated(By.id("left-endpoint")));
        new Select(browser.find("#left-endpoint")).selectByVisibleText("alice#a");
        browser.find("#left-go").click();
        browser.await("the left listing", ExpectedConditions.presenceOfElementLocated(By.id("left-listing")));
        WebElement left = browser.find("#left-pane");
        WebElement right = browser.find("#right-pane");
        // one column: the right pane below the left, neither wider than the window
        assertThat(right.getLocation().getY())
                .isGreaterThanOrEqualTo(
                        left.getLocation().getY() + left.getSize().getHeight());
        assertThat(((Number) browser.script("return document.documentElement.scrollWidth;")).intValue())
                .as("no sideways scrolling")
                .isLessThanOrEqualTo(((Number) browser.script("return window.innerWidth;")).intValue());
        browser.screenshot("09-file-manager-phone");
        browser.resize(1366, 900);
    }

    private void signOut() throws IOException {
        browser.find("#sign-out").click();
        browser.await("the sign-in page", ExpectedConditions.presenceOfElementLocated(By.id("signin-form")));
        assertThat(browser.find("[role=status]").getText()).contains("You have signed out.");
        browser.screenshot("10-signed-out");
        browser.get(url + "/tasks");
        browser.await("sent to sign in", ExpectedConditions.presenceOfElementLocated(By.id("signin-form")));
    }

    @Test
    @Order(2)
    void sshKeysAreAddedListedRefusedAndRemovedOnTheirPage() throws Exception {
        try {
            sshKeys();
        } catch (Throwable failed) {
            browser.failure("ssh-keys-failure");
            throw failed;
        }
    }

    private void sshKeys() throws Exception {
        WebClient api = new WebClient(tls.client(), url);
        String admin = WebClient.bearer(
                Files.readString(server.ferryHome().resolve("token")).trim());
        for (String user : List.of("carol", "dave")) {
            api.apiOk(
                    "POST",
                    "/v0.10/user",
                    admin,
                    "{\"DATA_TYPE\":\"user\",\"username\":\"" + user + "\",\"password\":\"" + PASSWORD + "\"}");
        }
        String carol = WebClient.basic("carol", PASSWORD);
        Path key = Files.createDirectories(work.resolve("ssh-keys")).resolve("id_ed25519");
        sshKeygen("-q", "-t", "ed25519", "-N", "", "-C", "carol@laptop", "-f", key.toString());
        String publicLine = Files.readString(Path.of(key + ".pub")).strip();
        String privateKey = Files.readString(key);
        // "256 SHA256:... carol@laptop (ED25519)": OpenSSH's own fingerprint of the key
        String fingerprint = sshKeygen("-l", "-f", key + ".pub").split(" ")[1];
        assertThat(fingerprint).startsWith("SHA256:");

        signInAs("carol");
        browser.find("#nav-ssh-keys").click();
        browser.await("the empty key list", ExpectedConditions.presenceOfElementLocated(By.id("no-ssh-keys")));
        checkLabels("SSH keys");

        // a private key pasted by mistake: said so, not stored, not shown back
        WebElement error = pasteRefused(privateKey, "");
        assertThat(error.getText()).startsWith("Public key: ").contains("private key", "nothing was stored");
        String privateBody = privateKey
                .lines()
                .filter(line -> !line.startsWith("-----"))
                .findFirst()
                .orElseThrow();
        assertThat(browser.driver().getPageSource()).doesNotContain(privateBody);
        assertThat(browser.find("#public-key").getAttribute("value")).isEmpty();
        assertThat(browser.find("#public-key").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(keysOf(api, carol)).isEmpty();

        assertThat(pasteRefused("not a key at all", "").getText())
                .startsWith("Public key: ")
                .contains("not an OpenSSH public key");
        assertThat(keysOf(api, carol)).isEmpty();
        // the server's own check, not only the browser's: the field's 'required' taken away
        browser.script("document.getElementById('public-key').removeAttribute('required');");
        assertThat(pasteRefused("", "").getText()).startsWith("Public key: ").contains("public_key is required");
        assertThat(keysOf(api, carol)).isEmpty();

        Instant before = Instant.now().minusSeconds(1);
        submit(() -> {
            browser.find("#public-key").sendKeys(publicLine);
            browser.find("#key-comment").sendKeys("carol's laptop");
            browser.find("#ssh-key-add").click();
        });
        WebElement row = browser.await(
                "the key listed",
                ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-ssh-key='" + fingerprint + "']")));
        assertThat(browser.find("[role=status]").getText()).contains("SSH key " + fingerprint + " was added.");
        assertThat(row.findElement(By.cssSelector(".fingerprint")).getText()).isEqualTo(fingerprint);
        assertThat(row.findElement(By.cssSelector(".key-type")).getText()).isEqualTo("ssh-ed25519");
        assertThat(row.findElement(By.cssSelector(".key-comment")).getText()).isEqualTo("carol's laptop");
        assertThat(Instant.parse(row.findElement(By.cssSelector(".key-added")).getAttribute("datetime")))
                .isBetween(before, Instant.now());
        String keyId = row.getAttribute("data-ssh-key-id");
        checkLabels("SSH keys");
        browser.screenshot("11-ssh-keys");
        List<JsonNode> stored = keysOf(api, carol);
        assertThat(stored).hasSize(1);
        assertThat(stored.get(0).get("id").asString()).isEqualTo(keyId);
        assertThat(stored.get(0).get("fingerprint").asString()).isEqualTo(fingerprint);
        assertThat(stored.get(0).get("description").asString()).isEqualTo("carol's laptop");
        assertThat(publicLine).startsWith(stored.get(0).get("public_key").asString() + " ");

        assertThat(pasteRefused(publicLine, "again").getText())
                .startsWith("Public key: ")
                .contains("registered already");
        assertThat(keysOf(api, carol)).hasSize(1);

        // another user: an empty page, and carol's key id in a form of theirs is not found
        signOutNow();
        signInAs("dave");
        browser.find("#nav-ssh-keys").click();
        browser.await("dave's empty key list", ExpectedConditions.presenceOfElementLocated(By.id("no-ssh-keys")));
        assertThat(browser.driver().getPageSource()).doesNotContain(fingerprint, keyId);
        submit(() -> browser.script("""
                var form = document.createElement('form');
                form.method = 'post';
                form.action = arguments[0];
                var token = document.createElement('input');
                token.type = 'hidden';
                token.name = '_csrf';
                token.value = document.querySelector('input[name=_csrf]').value;
                form.appendChild(token);
                document.body.appendChild(form);
                form.submit();
                """, url + "/ssh-keys/" + keyId + "/remove"));
        WebElement notFound = browser.await(
                "the not-found page", ExpectedConditions.presenceOfElementLocated(By.id("problem-message")));
        assertThat(browser.find("#problem-heading").getText()).isEqualTo("Not found");
        assertThat(notFound.getText()).contains("No SSH key");
        assertThat(keysOf(api, carol)).hasSize(1);
        signOutNow();

        signInAs("carol");
        browser.find("#nav-ssh-keys").click();
        browser.await(
                "carol's key",
                ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-ssh-key='" + fingerprint + "']")));
        submit(() -> {
            browser.find("tr[data-ssh-key='" + fingerprint + "'] button.danger").click();
            browser.await("the confirmation", ExpectedConditions.alertIsPresent())
                    .accept();
        });
        browser.await("the key gone", ExpectedConditions.presenceOfElementLocated(By.id("no-ssh-keys")));
        assertThat(browser.find("[role=status]").getText()).contains("SSH key " + fingerprint + " was removed.");
        assertThat(browser.findAll("tr[data-ssh-key]")).isEmpty();
        assertThat(keysOf(api, carol)).isEmpty();

        sshftpEndpointOnTheForm(api, carol, privateKey, privateBody);
        signOutNow();
    }

    /**
     * An sshftp:// endpoint made on the endpoint form: an encrypted key refused beside its field and
     * not shown back, then the endpoint made with an unencrypted key and a host key to pin (given,
     * so no server is reached), its key never in a page or in the API's document.
     */
    private void sshftpEndpointOnTheForm(WebClient api, String carol, String privateKey, String privateBody)
            throws Exception {
        Path keys = work.resolve("ssh-keys");
        Path locked = keys.resolve("id_locked");
        sshKeygen("-q", "-t", "ed25519", "-N", "a passphrase", "-f", locked.toString());
        String lockedKey = Files.readString(locked);
        String lockedBody = lockedKey
                .lines()
                .filter(line -> !line.startsWith("-----"))
                .findFirst()
                .orElseThrow();
        Path host = keys.resolve("ssh_host_ed25519_key");
        sshKeygen("-q", "-t", "ed25519", "-N", "", "-f", host.toString());
        String hostLine = Files.readString(Path.of(host + ".pub")).strip();

        browser.find("#nav-endpoints").click();
        browser.await("the endpoint list", ExpectedConditions.presenceOfElementLocated(By.id("endpoint-new")));
        browser.find("#endpoint-new").click();
        browser.await("the endpoint form", ExpectedConditions.presenceOfElementLocated(By.id("endpoint-form")));
        checkLabels("endpoint form");
        submit(() -> {
            browser.find("#name").sendKeys("lab");
            browser.find("#url").sendKeys("sshftp://127.0.0.1:2222");
            browser.find("#username").sendKeys("carol");
            browser.find("#sshPrivateKey").sendKeys(lockedKey);
            browser.find("#sshHostKey").sendKeys(hostLine);
            browser.find("#endpoint-save").click();
        });
        WebElement error = browser.await(
                "the form's error", ExpectedConditions.visibilityOfElementLocated(By.id("error-message")));
        assertThat(error.getText()).contains("ssh_private_key is not an unencrypted");
        assertThat(browser.find("#sshPrivateKey").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(browser.find("#sshPrivateKey").getAttribute("value")).isEmpty();
        assertThat(browser.driver().getPageSource()).doesNotContain(lockedBody);
        assertThat(browser.find("#sshHostKey").getAttribute("value")).isEqualTo(hostLine);

        submit(() -> {
            browser.find("#sshPrivateKey").sendKeys(privateKey);
            browser.find("#endpoint-save").click();
        });
        browser.await(
                "the sshftp endpoint listed",
                ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-endpoint='carol#lab']")));
        assertThat(browser.find("[role=status]").getText()).contains("carol#lab was created");
        assertThat(browser.driver().getPageSource()).doesNotContain(privateBody);
        JsonNode stored = api.apiOk("GET", "/v0.10/endpoint/carol%23lab", carol, null);
        assertThat(stored.get("username").asString()).isEqualTo("carol");
        assertThat(stored.toString()).contains("sshftp://127.0.0.1:2222").doesNotContain(privateBody);
    }

    @Test
    @Order(3)
    void optimizerPageChartsTheCallersPairsOnly() throws Exception {
        try {
            optimizerPage();
        } catch (Throwable failed) {
            browser.failure("optimizer-failure");
            throw failed;
        }
    }

    /**
     * Two users each move files between endpoints of their own (the same two servers): the
     * optimizer decides for both pairs every 2 s; olga's page shows her pair with its chart and
     * latest reason, and nothing of pavel's.
     */
    private void optimizerPage() throws Exception {
        WebClient api = new WebClient(tls.client(), url);
        String admin = WebClient.bearer(
                Files.readString(server.ferryHome().resolve("token")).trim());
        Path files = Files.createDirectories(rootA.resolve("optimizer"));
        for (int i = 1; i <= 4; i++) {
            // 2 MiB in all from the source capped at 512 KiB/s: a few of the optimizer's intervals
            Files.write(files.resolve("f" + i), new byte[512 * 1024]);
        }
        Map<String, String> tasks = new LinkedHashMap<>();
        Map<String, String> endpointIds = new HashMap<>();
        for (String user : List.of("olga", "pavel")) {
            api.apiOk(
                    "POST",
                    "/v0.10/user",
                    admin,
                    "{\"DATA_TYPE\":\"user\",\"username\":\"" + user + "\",\"password\":\"" + PASSWORD + "\"}");
            String auth = WebClient.basic(user, PASSWORD);
            for (String[] endpoint : List.of(new String[] {"src", a.url()}, new String[] {"dst", b.url()})) {
                JsonNode made = api.apiOk(
                        "POST",
                        "/v0.10/endpoint",
                        auth,
                        "{\"DATA_TYPE\":\"endpoint\",\"display_name\":\"" + endpoint[0] + "\",\"url\":\"" + endpoint[1]
                                + "\"}");
                endpointIds.put(user + "#" + endpoint[0], made.get("id").asString());
            }
            String source = "olga".equals(user) ? "/optimizer" : "/optimizer/f1";
            tasks.put(
                    user,
                    api.apiOk(
                                    "POST",
                                    "/v0.10/transfer",
                                    auth,
                                    "{\"DATA_TYPE\":\"transfer\",\"source_endpoint\":\"" + user
                                            + "#src\",\"destination_endpoint\":\"" + user + "#dst\","
                                            + "\"DATA\":[{\"DATA_TYPE\":\"transfer_item\",\"source_path\":\""
                                            + source + "\",\"destination_path\":\"/" + user + "-copy\","
                                            + "\"recursive\":" + "olga".equals(user) + "}]}")
                            .get("task_id")
                            .asString());
        }
        for (String user : tasks.keySet()) {
            JsonNode task = api.awaitTaskEnd(tasks.get(user), WebClient.basic(user, PASSWORD), Duration.ofMinutes(2));
            assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        }
        // the decisions of both pairs, as the admin sees them: the interval that saw the files arrive
        Awaitility.await("decisions for both pairs")
                .atMost(Browser.WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    String current = api.apiOk("GET", "/v0.10/optimizer/current", admin, null)
                            .toString();
                    return current.contains(endpointIds.get("olga#src"))
                            && current.contains(endpointIds.get("pavel#src"));
                });

        signInAs("olga");
        browser.find("#nav-optimizer").click();
        browser.await("the optimizer page", ExpectedConditions.presenceOfElementLocated(By.id("optimizer-heading")));
        List<WebElement> pairs = browser.findAll("section.optimizer-pair");
        assertThat(pairs).hasSize(1);
        WebElement pair = pairs.get(0);
        assertThat(pair.getAttribute("data-source")).isEqualTo("olga#src");
        assertThat(pair.getAttribute("data-destination")).isEqualTo("olga#dst");
        assertThat(pair.getAttribute("data-source-id")).isEqualTo(endpointIds.get("olga#src"));
        assertThat(pair.findElement(By.tagName("h2")).getText()).isEqualTo("olga#src → olga#dst");
        assertThat(pair.findElement(By.cssSelector(".pair-concurrency")).getText())
                .matches("\\d+ \\(was \\d+; range \\d+ to \\d+\\)");
        assertThat(pair.findElement(By.cssSelector(".pair-reason")).getText()).isNotBlank();
        WebElement chart = pair.findElement(By.cssSelector("svg.pair-chart"));
        assertThat(Integer.parseInt(chart.getAttribute("data-decisions"))).isPositive();
        assertThat(chart.findElements(By.cssSelector("g.strip"))).hasSize(3);
        for (String strip : List.of("concurrency", "throughput", "success-rate")) {
            WebElement line = chart.findElement(By.cssSelector("g.strip-" + strip + " polyline"));
            assertThat(line.getAttribute("points")).as(strip).matches("[0-9.]+,[0-9.]+( [0-9.]+,[0-9.]+)*");
        }
        // the browser drew it: the chart has a size on the page
        assertThat(chart.getSize().getWidth()).isGreaterThan(200);
        // pavel's pair, decided as olga's was, is nowhere on her page
        assertThat(browser.driver().getPageSource())
                .doesNotContain("pavel", endpointIds.get("pavel#src"), endpointIds.get("pavel#dst"));
        checkLabels("optimizer");
        browser.screenshot("12-optimizer");
        signOutNow();
    }

    /** Pastes into the key form, submits, and returns the error the page comes back with. */
    private WebElement pasteRefused(String publicKey, String comment) {
        submit(() -> {
            browser.find("#public-key").sendKeys(publicKey);
            browser.find("#key-comment").sendKeys(comment);
            browser.find("#ssh-key-add").click();
        });
        return browser.await("the form's error", ExpectedConditions.visibilityOfElementLocated(By.id("error-message")));
    }

    /** Runs an action that loads a new page and waits until the old one is gone. */
    private void submit(Runnable action) {
        browser.markDocument();
        action.run();
        browser.awaitNewDocument("the next page");
    }

    private static List<JsonNode> keysOf(WebClient api, String authorization) throws Exception {
        List<JsonNode> keys = new ArrayList<>();
        api.apiOk("GET", "/v0.10/ssh_key_list", authorization, null).get("DATA").forEach(keys::add);
        return keys;
    }

    private void signInAs(String user) {
        // signed out whatever the test before left (one that failed midway is still signed in,
        // and /signin then shows no form)
        if (browser.driver().getCurrentUrl().startsWith(url)) {
            browser.driver().manage().deleteAllCookies(); // the server's cookies: those of the page shown
        }
        browser.get(url + "/signin");
        browser.await("the sign-in page", ExpectedConditions.presenceOfElementLocated(By.id("signin-form")));
        browser.find("#username").sendKeys(user);
        browser.find("#password").sendKeys(PASSWORD);
        browser.find("#signin-submit").click();
        browser.await("signed in as " + user, ExpectedConditions.textToBe(By.id("signed-in-user"), user));
    }

    private void signOutNow() {
        browser.find("#sign-out").click();
        browser.await("signed out", ExpectedConditions.presenceOfElementLocated(By.id("signin-form")));
    }

    /** Runs Debian's ssh-keygen and returns its standard output. */
    private String sshKeygen(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("ssh-keygen"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(
                        work.resolve("ssh-keygen.log").toFile()))
                .start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("ssh-keygen ended").isTrue();
        assertThat(process.exitValue()).as(command + ": " + out).isZero();
        return out;
    }

    private void checkLabels(String page) {
        assertThat(browser.unlabelledControls())
                .as("controls without a label on the " + page + " page")
                .isEmpty();
    }
}
