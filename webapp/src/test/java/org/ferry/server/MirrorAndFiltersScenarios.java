package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code delete_destination_extra}, {@code filter_rules} and {@code POST /transfer/dry_run}
 * against two real Ferry GridFTP servers (in this JVM, on temporary directories) and the whole
 * service over HTTP, run once per database by {@link MirrorAndFiltersTest} (H2) and
 * {@link MirrorAndFiltersPostgresTest} (PostgreSQL). What the tests assert is what is on disk
 * afterwards, and the task's events.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class MirrorAndFiltersScenarios {

    @DynamicPropertySource
    static void transferSettings(DynamicPropertyRegistry registry) {
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
    }

    private final TransferFixture fixture;
    private final Path siteA;
    private final Path siteB;

    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    ApiClient api;

    /** @param fixture the concrete class's home, database and sites */
    MirrorAndFiltersScenarios(TransferFixture fixture) {
        this.fixture = fixture;
        this.siteA = fixture.siteA();
        this.siteB = fixture.siteB();
    }

    @BeforeEach
    void connect() throws IOException {
        api = fixture.adminApi(port, dataSource);
        fixture.registerSites(api, "mirror");
    }

    @Test
    void mirrorDeletesExactlyTheExtrasUnderItsPathsAfterTheCopy() throws Exception {
        write(siteA.resolve("m1/src/a.txt"), "a, new");
        write(siteA.resolve("m1/src/sub/b.txt"), "b");
        write(siteA.resolve("m1/src/scratch.tmp"), "not copied: excluded");
        write(siteA.resolve("m1/single.txt"), "single");
        // the destination: an old a.txt, extras at every depth, an excluded name, a file item's
        // neighbour, and paths outside the items
        write(siteB.resolve("m1/dst/a.txt"), "a, old");
        write(siteB.resolve("m1/dst/extra.txt"), "extra");
        write(siteB.resolve("m1/dst/sub/b.txt"), "b");
        write(siteB.resolve("m1/dst/sub/extra2.txt"), "extra 2");
        write(siteB.resolve("m1/dst/gone/x.txt"), "x");
        write(siteB.resolve("m1/dst/gone/deeper/y.txt"), "y");
        write(siteB.resolve("m1/dst/keep.tmp"), "excluded names are kept");
        write(siteB.resolve("m1/files/other.txt"), "beside a file item: kept");
        write(siteB.resolve("m1/dst-sibling/z.txt"), "outside the destination path: kept");
        write(siteB.resolve("m1/outside.txt"), "outside: kept");

        Map<String, Object> doc = document(
                List.of(item("/m1/src", "/m1/dst", true), item("/m1/single.txt", "/m1/files/single.txt", false)));
        doc.put("delete_destination_extra", true);
        doc.put("filter_rules", List.of(rule("exclude", "*.tmp", null)));
        String taskId = submit(doc);
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("delete_destination_extra").asBoolean()).isTrue();
        assertThat(task.get("filter_rules").get(0).get("name").asString()).isEqualTo("*.tmp");

        assertThat(snapshot(siteB.resolve("m1")))
                .isEqualTo(Map.ofEntries(
                        Map.entry("dst", "dir"),
                        Map.entry("dst/a.txt", "a, new"),
                        Map.entry("dst/sub", "dir"),
                        Map.entry("dst/sub/b.txt", "b"),
                        Map.entry("dst/keep.tmp", "excluded names are kept"),
                        Map.entry("files", "dir"),
                        Map.entry("files/other.txt", "beside a file item: kept"),
                        Map.entry("files/single.txt", "single"),
                        Map.entry("dst-sibling", "dir"),
                        Map.entry("dst-sibling/z.txt", "outside the destination path: kept"),
                        Map.entry("outside.txt", "outside: kept")));
        // one event per deleted path, files before their directory
        List<String> deleted = new ArrayList<>();
        List<JsonNode> events = events(taskId);
        for (JsonNode event : events) {
            if ("DESTINATION_EXTRA_DELETED".equals(event.get("code").asString())) {
                deleted.add(event.get("details").asString());
            }
        }
        assertThat(deleted)
                .hasSize(6)
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/extra.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/sub/extra2.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/gone/x.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/gone/deeper/y.txt\""))
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/gone/deeper\"", "\"dir\""))
                .anySatisfy(d -> assertThat(d).contains("\"/m1/dst/gone\"", "\"dir\""));
        // the task ended after the deletions (events are newest first)
        assertThat(events.get(0).get("code").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void mirrorDeletesNothingWhenSourceErrorsWereSkipped() throws Exception {
        write(siteA.resolve("m2/src/a.txt"), "a");
        write(siteB.resolve("m2/dst/extra.txt"), "extra, kept: the source was not fully read");
        Map<String, Object> doc =
                document(List.of(item("/m2/src", "/m2/dst", true), item("/m2/missing", "/m2/dst-missing", true)));
        doc.put("delete_destination_extra", true);
        doc.put("skip_source_errors", true);
        String taskId = submit(doc);
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(Files.readString(siteB.resolve("m2/dst/extra.txt"))).startsWith("extra");
        assertThat(Files.readString(siteB.resolve("m2/dst/a.txt"))).isEqualTo("a");
        assertThat(events(taskId))
                .extracting(e -> e.get("code").asString())
                .contains("DELETE_DESTINATION_EXTRA_SKIPPED")
                .doesNotContain("DESTINATION_EXTRA_DELETED");
    }

    @Test
    void filterRulesDecideWhatTheCrawlTakesFirstMatchWins() throws Exception {
        write(siteA.resolve("f1/src/data/run1.h5"), "run 1");
        write(siteA.resolve("f1/src/data/notes.txt"), "notes");
        write(siteA.resolve("f1/src/raw/x.h5"), "x");
        write(siteA.resolve("f1/src/scratch/big.h5"), "inside an excluded directory");
        write(siteA.resolve("f1/src/top.txt"), "top");
        Map<String, Object> doc = document(List.of(item("/f1/src", "/f1/dst", true)));
        doc.put(
                "filter_rules",
                List.of(
                        rule("exclude", "scr[a-z]tch", "dir"),
                        rule("include", "*.h5", "file"),
                        rule("exclude", "*", "file")));
        String taskId = submit(doc);
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(snapshot(siteB.resolve("f1/dst")))
                .isEqualTo(Map.of("data", "dir", "data/run1.h5", "run 1", "raw", "dir", "raw/x.h5", "x"));
        assertThat(task.get("files_transferred").asLong()).isEqualTo(2);
    }

    @Test
    void dryRunListsCopySkipExcludeDeleteAndChangesNothing() throws Exception {
        write(siteA.resolve("d1/src/new.txt"), "new");
        write(siteA.resolve("d1/src/same.txt"), "same");
        write(siteA.resolve("d1/src/changed.txt"), "changed, longer");
        write(siteA.resolve("d1/src/skip.tmp"), "excluded");
        write(siteA.resolve("d1/src/newdir/deep.txt"), "deep");
        write(siteB.resolve("d1/dst/same.txt"), "same");
        write(siteB.resolve("d1/dst/changed.txt"), "changed");
        write(siteB.resolve("d1/dst/extra.txt"), "extra");
        write(siteB.resolve("d1/dst/old/e.txt"), "e");
        Map<String, String> sourceBefore = snapshot(siteA.resolve("d1"));
        Map<String, String> destinationBefore = snapshot(siteB.resolve("d1"));
        Map<String, FileTime> timesBefore = mtimes(siteB.resolve("d1"));
        int tasksBefore =
                api.get("/v0.10/task_list?limit=1000").body().get("DATA").size();

        Map<String, Object> doc = document(List.of(item("/d1/src", "/d1/dst", true)));
        doc.put("sync_level", "size");
        doc.put("delete_destination_extra", true);
        doc.put("filter_rules", List.of(rule("exclude", "*.tmp", null)));
        ApiClient.Answer answer = api.post("/v0.10/transfer/dry_run", doc);
        assertThat(answer.status()).as(String.valueOf(answer.body())).isEqualTo(200);
        JsonNode plan = answer.body();
        assertThat(plan.get("DATA_TYPE").asString()).isEqualTo("transfer_dry_run");
        Map<String, String> actions = new TreeMap<>();
        for (JsonNode entry : plan.get("DATA")) {
            actions.put(
                    entry.get("destination_path").asString(),
                    entry.get("action").asString());
        }
        assertThat(actions)
                .isEqualTo(Map.of(
                        "/d1/dst/new.txt", "copy",
                        "/d1/dst/changed.txt", "copy",
                        "/d1/dst/newdir/deep.txt", "copy",
                        "/d1/dst/same.txt", "skip",
                        "/d1/dst/skip.tmp", "exclude",
                        "/d1/dst/extra.txt", "delete",
                        "/d1/dst/old/e.txt", "delete",
                        "/d1/dst/old", "delete"));
        assertThat(plan.get("files_to_copy").asLong()).isEqualTo(3);
        assertThat(plan.get("bytes_to_copy").asLong()).isEqualTo(3 + 15 + 4);
        assertThat(plan.get("files_to_skip").asLong()).isEqualTo(1);
        assertThat(plan.get("files_excluded").asLong()).isEqualTo(1);
        assertThat(plan.get("paths_to_delete").asLong()).isEqualTo(3);

        // a destination that does not exist yet: everything is a copy, nothing is made
        ApiClient.Answer fresh =
                api.post("/v0.10/transfer/dry_run", document(List.of(item("/d1/src", "/d1/not-yet/dst", true))));
        assertThat(fresh.status()).as(String.valueOf(fresh.body())).isEqualTo(200);
        assertThat(fresh.body().get("files_to_copy").asLong()).isEqualTo(5);

        assertThat(snapshot(siteA.resolve("d1"))).isEqualTo(sourceBefore);
        assertThat(snapshot(siteB.resolve("d1"))).isEqualTo(destinationBefore);
        assertThat(mtimes(siteB.resolve("d1"))).isEqualTo(timesBefore);
        assertThat(api.get("/v0.10/task_list?limit=1000").body().get("DATA").size())
                .isEqualTo(tasksBefore);
    }

    @Test
    void badRulesAndMirrorsWithoutRecursiveItemsAreRefusedByField() {
        Map<String, Object> badMethod = document(List.of(item("/x", "/y", true)));
        badMethod.put("filter_rules", List.of(rule("exclude", "*.tmp", null), rule("drop", "*", null)));
        ApiClient.Answer method = api.post("/v0.10/transfer", badMethod);
        assertThat(method.status()).isEqualTo(400);
        assertThat(method.body().get("field").asString()).isEqualTo("filter_rules[1].method");

        Map<String, Object> badType = document(List.of(item("/x", "/y", true)));
        badType.put("filter_rules", List.of(rule("exclude", "*.tmp", "link")));
        assertThat(api.post("/v0.10/transfer", badType).body().get("field").asString())
                .isEqualTo("filter_rules[0].type");

        Map<String, Object> slash = document(List.of(item("/x", "/y", true)));
        slash.put("filter_rules", List.of(rule("exclude", "a/b", null)));
        assertThat(api.post("/v0.10/transfer/dry_run", slash)
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("filter_rules[0].name");

        Map<String, Object> fileOnly = document(List.of(item("/x", "/y", false)));
        fileOnly.put("delete_destination_extra", true);
        ApiClient.Answer mirror = api.post("/v0.10/transfer", fileOnly);
        assertThat(mirror.status()).isEqualTo(400);
        assertThat(mirror.body().get("field").asString()).isEqualTo("delete_destination_extra");
    }

    private String submit(Map<String, Object> doc) {
        ApiClient.Answer answer = api.post("/v0.10/transfer", doc);
        assertThat(answer.status()).as(String.valueOf(answer.body())).isEqualTo(202);
        return answer.body().get("task_id").asString();
    }

    private List<JsonNode> events(String taskId) {
        List<JsonNode> out = new ArrayList<>();
        api.get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                .body()
                .get("DATA")
                .forEach(out::add);
        return out;
    }

    private static Map<String, Object> document(List<Map<String, Object>> items) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", "admin#mirror-a");
        doc.put("destination_endpoint", "admin#mirror-b");
        doc.put("DATA", items);
        return doc;
    }

    private static Map<String, Object> item(String source, String destination, boolean recursive) {
        return Map.of(
                "DATA_TYPE",
                "transfer_item",
                "source_path",
                source,
                "destination_path",
                destination,
                "recursive",
                recursive);
    }

    private static Map<String, Object> rule(String method, String name, String type) {
        Map<String, Object> rule = new HashMap<>();
        rule.put("DATA_TYPE", "filter_rule");
        rule.put("method", method);
        rule.put("name", name);
        if (type != null) {
            rule.put("type", type);
        }
        return rule;
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        // an hour in the past: a later write (the copy) is told apart by its time too
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minusSeconds(3600)));
    }

    /** Relative path to text content ("dir" for directories). */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                if (path.equals(root)) {
                    continue;
                }
                files.put(
                        root.relativize(path).toString(),
                        Files.isDirectory(path) ? "dir" : Files.readString(path, StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    private static Map<String, FileTime> mtimes(Path root) throws IOException {
        Map<String, FileTime> times = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.toList()) {
                times.put(root.relativize(path).toString(), Files.getLastModifiedTime(path));
            }
        }
        return times;
    }
}
