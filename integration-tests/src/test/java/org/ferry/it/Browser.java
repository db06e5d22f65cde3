package org.ferry.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.ferry.testing.Prerequisites;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (paths given, so Selenium
 * Manager never runs), with a profile in the test's own directory, screenshots under
 * {@code target/}, and waits on page state only. Absent outside CI the calling test is skipped;
 * under {@code CI=true} ({@code .ci/run} installs both) it fails.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    /** Long enough for a loaded machine; every wait ends as soon as its condition holds. */
    static final Duration WAIT = Duration.ofSeconds(120);

    private final ChromeDriver driver;
    private final Path screenshots;

    private Browser(ChromeDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    /** Skips the calling test when Chromium or chromedriver is missing, outside CI. */
    static void assumeInstalled() {
        Prerequisites.require(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromium-driver not installed");
    }

    /**
     * @param profile an empty directory for the browser's profile
     * @param screenshots where {@link #screenshot} writes
     */
    static Browser start(Path profile, Path screenshots) throws IOException {
        return start(profile, screenshots, null);
    }

    /**
     * @param profile an empty directory for the browser's profile
     * @param screenshots where {@link #screenshot} writes
     * @param trustedKeySha256 the base64 SHA-256 of the one server key to trust beside the system's
     *     CAs ({@link SelfSignedTls#publicKeySha256}), or null
     */
    static Browser start(Path profile, Path screenshots, String trustedKeySha256) throws IOException {
        Files.createDirectories(screenshots);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-default-apps",
                "--disable-sync",
                "--no-first-run",
                "--metrics-recording-only",
                "--disable-extensions",
                "--window-size=1366,900",
                "--user-data-dir=" + profile);
        if (trustedKeySha256 != null) {
            // that key alone, not any certificate
            options.addArguments("--ignore-certificate-errors-spki-list=" + trustedKeySha256);
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new Browser(new ChromeDriver(service, options), screenshots);
    }

    WebDriver driver() {
        return driver;
    }

    void get(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Waits until the condition holds (polled by Selenium), failing after {@link #WAIT}. */
    <T> T await(String what, ExpectedCondition<T> condition) {
        return new WebDriverWait(driver, WAIT).withMessage(what).until(condition);
    }

    /**
     * Marks the document the window shows now, for {@link #awaitNewDocument}: a flag on its
     * {@code window}, which the next document's fresh {@code window} does not have.
     */
    void markDocument() {
        script("window.ferryMarkedDocument = true;");
    }

    /**
     * Waits until the window shows another document than the one {@link #markDocument} marked.
     * Asks the window itself rather than whether an element of the old page went stale: while a
     * page is replaced Chrome may answer a question about an old element with an inspector error
     * ("Node with given id does not belong to the document") instead of a stale element reference,
     * which ended the wait with that error. A script that fails while the next page loads counts
     * as "not yet".
     */
    void awaitNewDocument(String what) {
        new WebDriverWait(driver, WAIT)
                .withMessage(what)
                .ignoring(WebDriverException.class)
                .until(d -> !Boolean.TRUE.equals(
                        ((JavascriptExecutor) d).executeScript("return window.ferryMarkedDocument === true;")));
    }

    Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Saves the whole viewport as {@code NAME.png}. */
    Path screenshot(String name) throws IOException {
        File shot = driver.getScreenshotAs(OutputType.FILE);
        Path target = screenshots.resolve(name + ".png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    /** Saves what the browser shows and the page's source, as {@code NAME.png} and {@code NAME.html}. */
    void failure(String name) {
        try {
            screenshot(name);
            Files.writeString(screenshots.resolve(name + ".html"), driver.getPageSource());
        } catch (IOException | RuntimeException e) {
            // the test's own failure matters more
        }
    }

    /**
     * @return the controls of the page a screen reader could not name: visible inputs, selects,
     *     textareas and buttons with no label, aria-label, aria-labelledby or text (their ids or
     *     names)
     */
    @SuppressWarnings("unchecked")
    List<String> unlabelledControls() {
        return (List<String>) script("""
                var missing = [];
                document.querySelectorAll('input, select, textarea, button').forEach(function (c) {
                  if (c.type === 'hidden' || c.hidden || c.getAttribute('aria-hidden') === 'true') { return; }
                  var named = c.getAttribute('aria-label') || c.getAttribute('aria-labelledby')
                      || (c.labels && c.labels.length > 0)
                      || ((c.tagName === 'BUTTON') && c.textContent.trim().length > 0);
                  if (!named) { missing.push(c.id || c.name || c.outerHTML.substring(0, 80)); }
                });
                return missing;
                """);
    }

    @Override
    public void close() {
        driver.quit();
    }
}
