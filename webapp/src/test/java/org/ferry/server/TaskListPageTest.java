package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.JsonNode;

/**
 * The task list page over real HTTP with more tasks than one page holds (26 ended tasks of real
 * transfers between two Ferry GridFTP servers, and a delete task): page 1 shows the 20 newest,
 * its Next link shows the rest; with filters (status, several statuses, type, label) each page
 * holds only matching tasks, the links between pages keep the filters, and the pages together are
 * exactly the tasks the API's {@code task_list} finds with the same filter, newest first.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskListPageTest {

    private static final Path HOME = TestHomes.create("ferry-task-list-page");
    private static final Pattern ROW = Pattern.compile("<tr data-task=\"([0-9a-f-]{36})\">");
    private static final Pattern NEXT = Pattern.compile("id=\"page-next\" rel=\"next\"\\s+href=\"([^\"]+)\"");
    private static final Pattern PREVIOUS = Pattern.compile("id=\"page-previous\" rel=\"prev\"\\s+href=\"([^\"]+)\"");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    private TestGridFtp serverA;
    private TestGridFtp serverB;
    private PageClient kim;
    private ApiClient api;

    @BeforeAll
    void makeTasks() throws Exception {
        Path siteA = Files.createDirectories(HOME.resolve("site-a"));
        Path siteB = Files.createDirectories(HOME.resolve("site-b"));
        Files.writeString(siteA.resolve("small.txt"), "small");
        serverA = TestGridFtp.serve(siteA);
        serverB = TestGridFtp.serve(siteB);
        kim = PageClient.signedIn(port, HOME, "kim", "kims-password");
        api = new ApiClient(port, null).withPassword("kim", "kims-password");
        for (String[] endpoint : new String[][] {{"kim#a", serverA.url()}, {"kim#b", serverB.url()}}) {
            assertThat(api.post("/v0.10/endpoint", Map.of("canonical_name", endpoint[0], "url", endpoint[1]))
                            .status())
                    .isEqualTo(201);
        }
        List<String> submitted = new ArrayList<>();
        for (int i = 1; i <= 21; i++) {
            submitted.add(transfer("batch-" + i, "/small.txt", "/copy-" + i + ".txt"));
        }
        submitted.add(transfer("batch-missing-1", "/missing.txt", "/never-1.txt"));
        submitted.add(transfer("batch-missing-2", "/missing.txt", "/never-2.txt"));
        submitted.add(transfer("other-1", "/small.txt", "/other-1.txt"));
        submitted.add(transfer("other-2", "/small.txt", "/other-2.txt"));
        ApiClient.Answer delete = api.post(
                "/v0.10/delete",
                Map.of(
                        "DATA_TYPE",
                        "delete",
                        "endpoint",
                        "kim#b",
                        "label",
                        "cleanup",
                        "ignore_missing",
                        true,
                        "DATA",
                        List.of(Map.of("DATA_TYPE", "delete_item", "path", "/not-there.txt"))));
        assertThat(delete.status()).as(String.valueOf(delete.body())).isEqualTo(202);
        submitted.add(delete.body().get("task_id").asString());
        for (String taskId : submitted) {
            JsonNode task = TaskWaits.ended(api, taskId);
            String label = task.get("label").asString();
            assertThat(task.get("status").asString())
                    .as(label)
                    .isEqualTo(label.startsWith("batch-missing") ? "FAILED" : "SUCCEEDED");
        }
    }

    @AfterAll
    void stopServers() {
        serverA.close();
        serverB.close();
    }

    private String transfer(String label, String sourcePath, String destinationPath) {
        Map<String, Object> document =
                new HashMap<>(RestApiTest.transfer("kim#a", "kim#b", null, sourcePath, destinationPath));
        document.put("label", label);
        ApiClient.Answer accepted = api.post("/v0.10/transfer", document);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return accepted.body().get("task_id").asString();
    }

    @Test
    void theSecondPageShowsTheRest() throws Exception {
        String first = kim.page("/tasks");
        assertThat(first).contains("26 tasks, newest first", "Page 1 of 2").doesNotContain("id=\"page-previous\"");
        List<String> onFirst = rows(first);
        assertThat(onFirst).hasSize(20);
        String second = kim.page(link(NEXT, first));
        assertThat(second).contains("Page 2 of 2").doesNotContain("id=\"page-next\"");
        List<String> onSecond = rows(second);
        assertThat(onSecond).hasSize(6);
        List<String> both = new ArrayList<>(onFirst);
        both.addAll(onSecond);
        assertThat(both).containsExactlyElementsOf(apiIds(null));
        assertThat(rows(kim.page(link(PREVIOUS, second)))).isEqualTo(onFirst);
    }

    @Test
    void filtersHoldOnEveryPage() throws Exception {
        String batch = kim.page("/tasks?label=batch");
        assertThat(batch).contains("23 tasks", "Page 1 of 2");
        List<String> pages = new ArrayList<>(rows(batch));
        String batchSecond = kim.page(link(NEXT, batch));
        assertThat(batchSecond).contains("23 tasks", "Page 2 of 2", "value=\"batch\"");
        assertThat(rows(batchSecond)).hasSize(3);
        pages.addAll(rows(batchSecond));
        assertThat(pages).containsExactlyElementsOf(apiIds("label:~*batch*"));

        String succeeded = kim.page("/tasks?status=SUCCEEDED&label=batch");
        assertThat(succeeded).contains("21 tasks", "Page 1 of 2");
        String succeededSecond = kim.page(link(NEXT, succeeded));
        assertThat(succeededSecond).contains("Page 2 of 2").containsPattern("id=\"status-SUCCEEDED\"[^>]*checked");
        List<String> last = rows(succeededSecond);
        assertThat(last).hasSize(1);
        List<String> all = new ArrayList<>(rows(succeeded));
        all.addAll(last);
        assertThat(all).containsExactlyElementsOf(apiIds("status:SUCCEEDED/label:~*batch*"));

        String ended = kim.page("/tasks?status=SUCCEEDED&status=FAILED&type=TRANSFER");
        assertThat(ended).contains("25 tasks", "Page 1 of 2");
        String endedSecond = kim.page(link(NEXT, ended));
        assertThat(endedSecond).contains("25 tasks", "Page 2 of 2");
        List<String> rest = rows(endedSecond);
        assertThat(rest).hasSize(5);
        List<String> transfers = new ArrayList<>(rows(ended));
        transfers.addAll(rest);
        assertThat(transfers).containsExactlyElementsOf(apiIds("status:SUCCEEDED,FAILED/type:TRANSFER"));

        String failed = kim.page("/tasks?status=FAILED");
        assertThat(failed).contains("2 tasks").doesNotContain("Page 1 of");
        assertThat(rows(failed)).containsExactlyElementsOf(apiIds("status:FAILED"));

        String deletes = kim.page("/tasks?type=DELETE");
        assertThat(deletes).contains("1 task,", ">cleanup<").doesNotContain("Page 1 of");
    }

    /** @return the address of a paging link, unescaped */
    private static String link(Pattern which, String page) {
        Matcher link = which.matcher(page);
        assertThat(link.find()).as(which.pattern()).isTrue();
        return HtmlUtils.htmlUnescape(link.group(1));
    }

    private static List<String> rows(String page) {
        List<String> ids = new ArrayList<>();
        Matcher row = ROW.matcher(page);
        while (row.find()) {
            ids.add(row.group(1));
        }
        return ids;
    }

    /** @return the ids the API lists with the filter, newest first */
    private List<String> apiIds(String filter) {
        JsonNode list = api.get("/v0.10/task_list?limit=1000"
                        + (filter == null
                                ? ""
                                : "&filter="
                                        + java.net.URLEncoder.encode(filter, java.nio.charset.StandardCharsets.UTF_8)))
                .body();
        List<String> ids = new ArrayList<>();
        for (JsonNode task : list.get("DATA")) {
            ids.add(task.get("task_id").asString());
        }
        return ids;
    }
}
