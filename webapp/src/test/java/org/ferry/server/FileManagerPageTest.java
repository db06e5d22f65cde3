package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Adler32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The file manager's forms over real HTTP, as a browser posts them (an unchecked box sends
 * nothing), between two real Ferry GridFTP servers; what each form did is read back through the
 * REST API and on disk. The transfer form's options (sync level, checksum verification, label,
 * deadline in the browser's time zone, each e-mail box on and off, the untouched form's defaults)
 * arrive in the task as chosen; encryption between clear-text endpoints is refused with a message
 * naming {@code encrypt_data} and makes no task. Several entries selected on either side go in
 * one task into the other side's directory; a directory is made, an entry (file or directory)
 * renamed, a selection deleted by a delete task; the slips (nothing selected, two selected for a
 * rename, a name with a slash, a name taken) come back as the page's message.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FileManagerPageTest {

    private static final Path HOME = TestHomes.create("ferry-file-manager-page");
    private static final Pattern TASK_LINK = Pattern.compile("id=\"notice-task\"[^>]*>View task ([0-9a-f-]{36})<");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    private Path siteA;
    private Path siteB;
    private TestGridFtp serverA;
    private TestGridFtp serverB;
    private PageClient hana;
    private ApiClient api;
    private String a;
    private String b;

    @BeforeAll
    void startServersAndSignIn() throws Exception {
        siteA = Files.createDirectories(HOME.resolve("site-a"));
        siteB = Files.createDirectories(HOME.resolve("site-b"));
        serverA = TestGridFtp.serve(siteA);
        serverB = TestGridFtp.serve(siteB);
        hana = PageClient.signedIn(port, HOME, "hana", "hanas-password");
        api = new ApiClient(port, null).withPassword("hana", "hanas-password");
        for (String[] endpoint : new String[][] {{"a", serverA.url()}, {"b", serverB.url()}}) {
            assertThat(hana.post("/endpoints", "name", endpoint[0], "url", endpoint[1])
                            .statusCode())
                    .isEqualTo(302);
        }
        String page = hana.page("/files");
        a = option(page, "hana#a");
        b = option(page, "hana#b");
    }

    @AfterAll
    void stopServers() {
        serverA.close();
        serverB.close();
    }

    /** One transfer form: the options a user set (browser form fields) and what the task must say. */
    private record OptionCase(
            String destinationDirectory,
            List<String> fields,
            Integer syncLevel,
            boolean verifyChecksum,
            String verifiedWith,
            String label,
            String deadline,
            boolean notifySucceeded,
            boolean notifyFailed,
            boolean notifyInactive) {}

    @Test
    void everyTransferOptionOfTheFormArrivesInTheTaskAsChosen() throws Exception {
        byte[] content = new byte[40_000];
        new Random(14).nextBytes(content);
        Files.createDirectories(siteA.resolve("data"));
        Files.write(siteA.resolve("data/one.bin"), content);

        // the untouched form, read from the page as a browser would submit it
        String form = hana.page(filesUrl("/data", "/untouched"));
        List<String> untouched = new ArrayList<>(List.of("syncLevel", "", "label", "", "deadline", ""));
        untouched.addAll(List.of("tzOffsetMinutes", "")); // no script ran: the hidden field stays empty
        for (String box : List.of("verifyChecksum", "encrypt", "notifySucceeded", "notifyFailed", "notifyInactive")) {
            if (checked(form, box)) {
                untouched.addAll(List.of(box, "true"));
            }
        }
        assertThat(checked(form, "encrypt")).isFalse();
        // the algorithm list starts at Globus' default
        assertThat(form).containsPattern("<option value=\"MD5\" selected");
        untouched.addAll(List.of("checksumAlgorithm", "MD5"));

        List<OptionCase> cases = List.of(
                new OptionCase("/untouched", untouched, null, true, "MD5", null, null, true, true, true),
                new OptionCase(
                        "/by-size",
                        List.of(
                                "syncLevel",
                                "size",
                                "checksumAlgorithm",
                                "sha256",
                                "verifyChecksum",
                                "true",
                                "label",
                                "nightly run",
                                "deadline",
                                "2031-01-31T18:00",
                                // the browser is at UTC+1: Date.getTimezoneOffset() is -60
                                "tzOffsetMinutes",
                                "-60",
                                "notifySucceeded",
                                "true"),
                        1,
                        true,
                        "SHA-256",
                        "nightly run",
                        "2031-01-31T17:00:00+00:00",
                        true,
                        false,
                        false),
                new OptionCase(
                        "/by-checksum",
                        List.of(
                                "syncLevel",
                                "checksum",
                                "label",
                                "second",
                                "deadline",
                                "2031-02-01T06:30",
                                "notifyFailed",
                                "true"),
                        3,
                        false,
                        null,
                        "second",
                        "2031-02-01T06:30:00+00:00",
                        false,
                        true,
                        false),
                new OptionCase(
                        "/if-missing",
                        List.of(
                                "syncLevel",
                                "exists",
                                "verifyChecksum",
                                "true",
                                "checksumAlgorithm",
                                "ADLER32",
                                "notifyInactive",
                                "true"),
                        0,
                        true,
                        "ADLER32",
                        null,
                        null,
                        false,
                        false,
                        true),
                new OptionCase(
                        "/if-newer", List.of("syncLevel", "mtime"), 2, false, null, null, null, false, false, false));

        for (OptionCase option : cases) {
            Files.createDirectories(siteB.resolve(option.destinationDirectory().substring(1)));
            Instant before = Instant.now();
            List<String> fields = new ArrayList<>(List.of(
                    "action",
                    "transfer-right",
                    "left",
                    a,
                    "lpath",
                    "/data",
                    "right",
                    b,
                    "rpath",
                    option.destinationDirectory(),
                    "leftSelected",
                    "one.bin"));
            fields.addAll(option.fields());
            String taskId = submitted(hana.post("/files/action", fields.toArray(String[]::new)));
            Instant after = Instant.now();

            JsonNode task = TaskWaits.ended(api, taskId);
            String what = option.destinationDirectory() + ": " + task;
            assertThat(task.get("status").asString()).as(what).isEqualTo("SUCCEEDED");
            assertThat(task.get("type").asString()).as(what).isEqualTo("TRANSFER");
            assertThat(task.get("source_endpoint").asString()).as(what).isEqualTo("hana#a");
            assertThat(task.get("destination_endpoint").asString()).as(what).isEqualTo("hana#b");
            assertThat(task.get("files_transferred").asLong()).as(what).isEqualTo(1);
            assertThat(task.get("bytes_transferred").asLong()).as(what).isEqualTo(content.length);
            if (option.syncLevel() == null) {
                assertThat(task.get("sync_level").isNull()).as(what).isTrue();
            } else {
                assertThat(task.get("sync_level").asInt()).as(what).isEqualTo(option.syncLevel());
            }
            assertThat(task.get("verify_checksum").asBoolean()).as(what).isEqualTo(option.verifyChecksum());
            // the file's verified checksum, in the algorithm chosen, against one computed here
            JsonNode transferred = api.get("/v0.10/task/" + taskId + "/successful_transfers")
                    .body()
                    .get("DATA")
                    .get(0);
            if (option.verifiedWith() == null) {
                assertThat(transferred.get("checksum").isNull()).as(what).isTrue();
            } else {
                assertThat(transferred.get("checksum_algorithm").asString())
                        .as(what)
                        .isEqualTo(option.verifiedWith().replace("-", ""));
                assertThat(transferred.get("checksum").asString())
                        .as(what)
                        .isEqualToIgnoringCase(checksum(option.verifiedWith(), content));
            }
            assertThat(task.get("encrypt_data").asBoolean()).as(what).isFalse();
            if (option.label() == null) {
                assertThat(task.get("label").isNull()).as(what).isTrue();
            } else {
                assertThat(task.get("label").asString()).as(what).isEqualTo(option.label());
            }
            if (option.deadline() == null) {
                // the server's default deadline: 24 hours from the request
                Instant deadline = Instant.parse(task.get("deadline").asString());
                assertThat(deadline)
                        .as(what)
                        .isBetween(
                                before.plus(Duration.ofHours(24)).minusSeconds(1),
                                after.plus(Duration.ofHours(24)).plusSeconds(1));
            } else {
                assertThat(task.get("deadline").asString()).as(what).isEqualTo(option.deadline());
            }
            assertThat(task.get("notify_on_succeeded").asBoolean()).as(what).isEqualTo(option.notifySucceeded());
            assertThat(task.get("notify_on_failed").asBoolean()).as(what).isEqualTo(option.notifyFailed());
            assertThat(task.get("notify_on_inactive").asBoolean()).as(what).isEqualTo(option.notifyInactive());
            assertThat(Files.readAllBytes(
                            siteB.resolve(option.destinationDirectory().substring(1) + "/one.bin")))
                    .isEqualTo(content);
        }
    }

    @Test
    void encryptionBetweenClearTextEndpointsOrAnUnknownAlgorithmIsRefusedByName() throws Exception {
        Files.createDirectories(siteA.resolve("secret"));
        Files.writeString(siteA.resolve("secret/plan.txt"), "not for clear text");
        long tasksBefore =
                api.get("/v0.10/task_list?limit=1000").body().get("total").asLong();

        HttpResponse<String> refused = action(
                "transfer-right",
                "/secret",
                "/",
                "leftSelected",
                "plan.txt",
                "encrypt",
                "true",
                "notifySucceeded",
                "true");
        String page = hana.follow(refused);
        assertThat(page)
                .contains("id=\"error-message\"", "encrypt_data needs endpoints that can encrypt data channels")
                .contains("hana#a is a clear-text endpoint")
                .doesNotContain("id=\"notice-task\"");
        assertThat(api.get("/v0.10/task_list?limit=1000").body().get("total").asLong())
                .isEqualTo(tasksBefore);
        assertThat(siteB.resolve("plan.txt")).doesNotExist();

        String unknown = hana.follow(
                action("transfer-right", "/secret", "/", "leftSelected", "plan.txt", "checksumAlgorithm", "CRC64"));
        assertThat(unknown)
                .contains("id=\"error-message\"", "checksum_algorithm must be one of MD5, ADLER32")
                .contains("was &#39;CRC64&#39;")
                .doesNotContain("id=\"notice-task\"");
        assertThat(api.get("/v0.10/task_list?limit=1000").body().get("total").asLong())
                .isEqualTo(tasksBefore);
        assertThat(siteB.resolve("plan.txt")).doesNotExist();
    }

    @Test
    void severalSelectedEntriesGoInOneTaskToTheOtherSideEitherWay() throws Exception {
        Files.createDirectories(siteA.resolve("multi/tree/sub"));
        Files.writeString(siteA.resolve("multi/x.txt"), "x");
        Files.writeString(siteA.resolve("multi/y.txt"), "yy");
        Files.writeString(siteA.resolve("multi/not-chosen.txt"), "stays");
        Files.writeString(siteA.resolve("multi/tree/w.txt"), "www");
        Files.writeString(siteA.resolve("multi/tree/sub/z.txt"), "zzzz");
        Files.createDirectories(siteB.resolve("inbox"));

        String listed = hana.page(filesUrl("/multi", "/inbox"));
        for (String name : List.of("x.txt", "y.txt", "tree", "not-chosen.txt")) {
            assertThat(listed).contains("data-name=\"" + name + "\"");
        }
        assertThat(listed).contains("value=\"tree/\""); // a directory is selected with its slash

        String right = submitted(action(
                "transfer-right",
                "/multi",
                "/inbox",
                "leftSelected",
                "x.txt",
                "leftSelected",
                "tree/",
                "leftSelected",
                "y.txt"));
        JsonNode task = TaskWaits.ended(api, right);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(4);
        assertThat(Files.readString(siteB.resolve("inbox/x.txt"))).isEqualTo("x");
        assertThat(Files.readString(siteB.resolve("inbox/y.txt"))).isEqualTo("yy");
        assertThat(Files.readString(siteB.resolve("inbox/tree/w.txt"))).isEqualTo("www");
        assertThat(Files.readString(siteB.resolve("inbox/tree/sub/z.txt"))).isEqualTo("zzzz");
        assertThat(siteB.resolve("inbox/not-chosen.txt")).doesNotExist();

        // and back from the right pane into the left pane's directory
        Files.createDirectories(siteA.resolve("returned"));
        String left = submitted(
                action("transfer-left", "/returned", "/inbox", "rightSelected", "y.txt", "rightSelected", "tree/"));
        JsonNode back = TaskWaits.ended(api, left);
        assertThat(back.get("status").asString()).as(back.toString()).isEqualTo("SUCCEEDED");
        assertThat(back.get("source_endpoint").asString()).isEqualTo("hana#b");
        assertThat(back.get("destination_endpoint").asString()).isEqualTo("hana#a");
        assertThat(back.get("files_transferred").asLong()).isEqualTo(3);
        assertThat(Files.readString(siteA.resolve("returned/y.txt"))).isEqualTo("yy");
        assertThat(Files.readString(siteA.resolve("returned/tree/sub/z.txt"))).isEqualTo("zzzz");
        assertThat(siteA.resolve("returned/x.txt")).doesNotExist();

        String nothing = hana.follow(action("transfer-right", "/multi", "/"));
        assertThat(nothing).contains("Select the files and directories to transfer first.");
    }

    @Test
    void aDirectoryIsMadeAnEntryRenamedAndTheSelectionDeleted() throws Exception {
        Files.createDirectories(siteA.resolve("work/old-dir/inner"));
        Files.writeString(siteA.resolve("work/old.txt"), "old");
        Files.writeString(siteA.resolve("work/old-dir/inner/deep.txt"), "deep");
        Files.writeString(siteA.resolve("work/keep.txt"), "keep");
        Files.writeString(siteA.resolve("work/gone.txt"), "gone");
        Files.createDirectories(siteB.resolve("work"));

        String made = hana.follow(hana.post(
                "/files/mkdir",
                "side",
                "right",
                "name",
                "fresh",
                "left",
                a,
                "lpath",
                "/work",
                "right",
                b,
                "rpath",
                "/work"));
        assertThat(made).contains("Directory /work/fresh was created on hana#b.");
        assertThat(made).contains("data-name=\"fresh\"");
        assertThat(siteB.resolve("work/fresh")).isDirectory();

        String renamed = hana.follow(rename("old.txt", "new.txt"));
        assertThat(renamed).contains("/work/old.txt was renamed to /work/new.txt.");
        assertThat(renamed).contains("data-name=\"new.txt\"").doesNotContain("data-name=\"old.txt\"");
        assertThat(Files.readString(siteA.resolve("work/new.txt"))).isEqualTo("old");
        assertThat(siteA.resolve("work/old.txt")).doesNotExist();

        assertThat(hana.follow(rename("old-dir/", "new-dir"))).contains("/work/old-dir was renamed to /work/new-dir.");
        assertThat(Files.readString(siteA.resolve("work/new-dir/inner/deep.txt")))
                .isEqualTo("deep");

        assertThat(hana.follow(rename("keep.txt", "a/b"))).contains("A name is one path component");
        assertThat(hana.follow(rename("keep.txt", "new.txt"))).contains("id=\"error-message\"");
        assertThat(Files.readString(siteA.resolve("work/new.txt"))).isEqualTo("old");
        String two = hana.follow(hana.post(
                "/files/action",
                "action",
                "rename-left",
                "left",
                a,
                "lpath",
                "/work",
                "leftSelected",
                "keep.txt",
                "leftSelected",
                "gone.txt",
                "leftNewName",
                "both.txt"));
        assertThat(two).contains("Select exactly one entry to rename.");
        assertThat(siteA.resolve("work/keep.txt")).exists();

        String deleteId = submitted(
                action("delete-left", "/work", "/work", "leftSelected", "gone.txt", "leftSelected", "new-dir/"));
        JsonNode deleted = TaskWaits.ended(api, deleteId);
        assertThat(deleted.get("status").asString()).as(deleted.toString()).isEqualTo("SUCCEEDED");
        assertThat(deleted.get("type").asString()).isEqualTo("DELETE");
        assertThat(deleted.get("source_endpoint").asString()).isEqualTo("hana#a");
        assertThat(siteA.resolve("work/gone.txt")).doesNotExist();
        assertThat(siteA.resolve("work/new-dir")).doesNotExist();
        assertThat(Files.readString(siteA.resolve("work/keep.txt"))).isEqualTo("keep");
        assertThat(Files.readString(siteA.resolve("work/new.txt"))).isEqualTo("old");
        String after = hana.page(filesUrl("/work", "/work"));
        assertThat(after).contains("data-name=\"keep.txt\"").doesNotContain("data-name=\"gone.txt\"");
    }

    /**
     * Posts a file manager button between the two panes (left: hana#a, right: hana#b).
     *
     * @param action the button, e.g. {@code transfer-right}
     * @param leftPath the left pane's directory
     * @param rightPath the right pane's directory
     * @param more further form fields as name, value pairs (the selection, options)
     */
    private HttpResponse<String> action(String action, String leftPath, String rightPath, String... more)
            throws Exception {
        List<String> fields = new ArrayList<>(
                List.of("action", action, "left", a, "lpath", leftPath, "right", b, "rpath", rightPath));
        fields.addAll(List.of(more));
        return hana.post("/files/action", fields.toArray(String[]::new));
    }

    /** The rename button of the left pane in /work with one entry selected. */
    private HttpResponse<String> rename(String selected, String newName) throws Exception {
        return action(
                "rename-left", "/work", "/work", "leftSelected", selected, "leftNewName", newName, "rightNewName", "");
    }

    private String filesUrl(String lpath, String rpath) {
        return "/files?left=" + a + "&lpath=" + lpath + "&right=" + b + "&rpath=" + rpath;
    }

    /** @return the id of the task the form's redirect announces */
    private String submitted(HttpResponse<String> response) throws Exception {
        String page = hana.follow(response);
        Matcher link = TASK_LINK.matcher(page);
        assertThat(link.find()).as("a task was submitted: " + errorOf(page)).isTrue();
        return link.group(1);
    }

    private static String errorOf(String page) {
        int at = page.indexOf("id=\"error-message\"");
        return at < 0 ? "(no error shown)" : page.substring(at, Math.min(page.length(), page.indexOf("</div>", at)));
    }

    /** @return whether the page's checkbox of that id starts checked */
    /** @return the hex checksum of {@code content} computed here: a JDK digest name or ADLER32 */
    private static String checksum(String algorithm, byte[] content) throws Exception {
        if (algorithm.equals("ADLER32")) {
            Adler32 adler = new Adler32();
            adler.update(content);
            return String.format("%08x", adler.getValue());
        }
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
    }

    private static boolean checked(String page, String id) {
        Matcher input = Pattern.compile("<input[^>]*\\bid=\"" + id + "\"[^>]*>").matcher(page);
        assertThat(input.find()).as(id + " on the page").isTrue();
        return input.group().matches(".*\\schecked[\\s=>].*");
    }

    private static String option(String page, String endpoint) {
        Matcher option = Pattern.compile("<option value=\"([^\"]+)\">" + Pattern.quote(endpoint) + "</option>")
                .matcher(page);
        assertThat(option.find()).as(endpoint + " offered").isTrue();
        return option.group(1);
    }
}
