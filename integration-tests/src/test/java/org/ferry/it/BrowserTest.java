package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The web pages in a real browser (Debian's headless Chromium through Selenium) against a real
 * {@code ferry-server} serving HTTPS with a configured key and certificate (the browser trusts
 * that key alone) and two real {@code ferry-gridftp} endpoints: a wrong password, sign-in,
 * endpoints made through the form, both panes of the file manager browsed (into a directory with
 * non-ASCII names and back), a directory made, a recursive transfer submitted whose progress the
 * page receives over server-sent events without reloading until SUCCEEDED, the files compared
 * byte for byte, a second transfer cancelled from its page, the task list filtered, the file
 * manager on a phone-sized window, sign-out. Every page is checked for controls without a label
 * and saved as a screenshot under {@code target/browser-screenshots/}.
 *
 * <p>The source endpoint is capped at 512 KiB/s, so the transfers take seconds however fast the
 * machine: the task page is open while the first one still runs, and the second is cancelled
 * long before it could end. Every wait is on page state.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
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
        browser.find("#cancel-task").click();
        browser.await("FAILED", ExpectedConditions.textToBe(By.id("task-status"), "FAILED"));
        assertThat(browser.find("#task-fatal").getText()).startsWith("CANCELED: ");
        assertThat(browser.find("[role=status]").getText()).contains("The task was cancelled.");
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

    private void checkLabels(String page) {
        assertThat(browser.unlabelledControls())
                .as("controls without a label on the " + page + " page")
                .isEmpty();
    }
}
