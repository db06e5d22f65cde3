package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The file operations, delete tasks, task updates, successful transfers, validation and limits
 * of the API against a real GridFTP server on a temporary directory.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiOperationsTest {

    private static final Path HOME = TestHomes.create("ferry-operations");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.api.max-items-per-task", () -> "50");
        registry.add("ferry.api.max-request-bytes", () -> "65536");
    }

    @LocalServerPort
    int port;

    ApiClient api;
    TestGridFtp gridFtp;
    Path root;

    @BeforeAll
    void start() throws Exception {
        root = Files.createDirectories(HOME.resolve("data"));
        gridFtp = TestGridFtp.serve(root);
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        assertThat(api.post(
                                "/v0.10/endpoint",
                                Map.of("canonical_name", "admin#ops", "url", gridFtp.url(), "description", "test data"))
                        .status())
                .isEqualTo(201);
    }

    @AfterAll
    void stop() {
        gridFtp.close();
    }

    @Test
    void lsPagesFiltersAndOrders() throws Exception {
        Path dir = Files.createDirectories(root.resolve("ls"));
        for (int i = 0; i < 5; i++) {
            Files.writeString(dir.resolve("f" + i + ".txt"), "x".repeat(i * 10));
        }
        Files.writeString(dir.resolve(".hidden"), "h");
        Files.createDirectories(dir.resolve("sub"));
        String ls = "/v0.10/operation/endpoint/admin%23ops/ls?path=/ls";
        JsonNode all = api.get(ls).body();
        assertThat(all.get("DATA_TYPE").asString()).isEqualTo("file_list");
        assertThat(all.get("total").asInt()).isEqualTo(7);
        assertThat(all.get("DATA").get(0).get("name").asString()).isEqualTo("sub"); // directories first
        assertThat(api.get(ls + "&show_hidden=0").body().get("total").asInt()).isEqualTo(6);
        JsonNode page = api.get(ls + "&limit=2&offset=2").body();
        assertThat(page.get("length").asInt()).isEqualTo(2);
        assertThat(page.get("has_next_page").asBoolean()).isTrue();
        assertThat(api.get(ls + "&filter=name:~f*.txt/size:15,")
                        .body()
                        .get("DATA")
                        .findValuesAsString("name"))
                .containsExactly("f2.txt", "f3.txt", "f4.txt");
        assertThat(api.get(ls + "&filter=type:dir").body().get("DATA").findValuesAsString("name"))
                .containsExactly("sub");
        assertThat(api.get(ls + "&filter=type:file&orderby=size%20DESC&show_hidden=false")
                        .body()
                        .get("DATA")
                        .get(0)
                        .get("name")
                        .asString())
                .isEqualTo("f4.txt");
        assertThat(api.get(ls + "&filter=colour:red").body().get("field").asString())
                .isEqualTo("filter");
        assertThat(api.get(ls + "&limit=0").body().get("field").asString()).isEqualTo("limit");
        assertThat(api.get("/v0.10/operation/endpoint/admin%23ops/ls?path=/missing")
                        .status())
                .isEqualTo(404);
    }

    @Test
    void mkdirRenameStat() throws Exception {
        String ops = "/v0.10/operation/endpoint/admin%23ops";
        ApiClient.Answer made = api.post(ops + "/mkdir", Map.of("DATA_TYPE", "mkdir", "path", "/made"));
        assertThat(made.status()).isEqualTo(200);
        assertThat(made.body().get("code").asString()).isEqualTo("DirectoryCreated");
        assertThat(Files.isDirectory(root.resolve("made"))).isTrue();
        ApiClient.Answer again = api.post(ops + "/mkdir", Map.of("path", "/made"));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("code").asString()).isEqualTo("ExternalError.MkdirFailed.Exists");

        Files.writeString(root.resolve("made/old.txt"), "12345");
        ApiClient.Answer renamed =
                api.post(ops + "/rename", Map.of("old_path", "/made/old.txt", "new_path", "/made/new.txt"));
        assertThat(renamed.body().get("code").asString()).isEqualTo("FileRenamed");
        assertThat(Files.readString(root.resolve("made/new.txt"))).isEqualTo("12345");
        assertThat(api.post(ops + "/rename", Map.of("old_path", "/made/old.txt", "new_path", "/made/x"))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("old_path");

        JsonNode stat = api.get(ops + "/stat?path=/made/new.txt").body();
        assertThat(stat.get("DATA_TYPE").asString()).isEqualTo("file");
        assertThat(stat.get("name").asString()).isEqualTo("new.txt");
        assertThat(stat.get("type").asString()).isEqualTo("file");
        assertThat(stat.get("size").asLong()).isEqualTo(5);
        assertThat(api.get(ops + "/stat?path=/made/none").status()).isEqualTo(404);
        assertThat(api.get(ops + "/stat").body().get("field").asString()).isEqualTo("path");
    }

    @Test
    void deleteTasksRemoveTreesAndHonourRecursiveAndIgnoreMissing() throws Exception {
        Path tree = Files.createDirectories(root.resolve("del/tree/deep"));
        Files.writeString(tree.resolve("a"), "a");
        Files.writeString(root.resolve("del/tree/b"), "b");
        Files.writeString(root.resolve("del/single"), "s");

        JsonNode notRecursive = TaskWaits.ended(api, submitDelete(List.of("/del/tree"), false, false));
        assertThat(notRecursive.get("status").asString()).isEqualTo("FAILED");
        assertThat(notRecursive.get("fatal_error").get("code").asString()).isEqualTo("NOT_A_FILE");
        assertThat(Files.exists(tree.resolve("a"))).isTrue();

        JsonNode missing = TaskWaits.ended(api, submitDelete(List.of("/del/none"), true, false));
        assertThat(missing.get("fatal_error").get("code").asString()).isEqualTo("FILE_NOT_FOUND");

        String taskId = submitDelete(List.of("/del/tree", "/del/single", "/del/none"), true, true);
        JsonNode done = TaskWaits.ended(api, taskId);
        assertThat(done.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(done.get("type").asString()).isEqualTo("DELETE");
        assertThat(done.get("destination_endpoint").isNull()).isTrue();
        assertThat(done.get("files").asLong()).isEqualTo(3);
        assertThat(Files.exists(root.resolve("del/tree"))).isFalse();
        assertThat(Files.exists(root.resolve("del/single"))).isFalse();
        assertThat(api.get("/v0.10/task_list?filter=type:DELETE&limit=1000")
                        .body()
                        .get("DATA")
                        .findValuesAsString("task_id"))
                .contains(taskId);
        ApiClient.Answer globs = api.post(
                "/v0.10/delete",
                Map.of("endpoint", "admin#ops", "interpret_globs", true, "DATA", List.of(Map.of("path", "/x*"))));
        assertThat(globs.status()).isEqualTo(400);
        assertThat(globs.body().get("field").asString()).isEqualTo("interpret_globs");
        assertThat(api.post("/v0.10/delete", Map.of("endpoint", "admin#ops", "DATA", List.of(Map.of("path", "/"))))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("DATA[0].path");
    }

    private String submitDelete(List<String> paths, boolean recursive, boolean ignoreMissing) {
        List<Map<String, Object>> items = new ArrayList<>();
        paths.forEach(p -> items.add(Map.of("DATA_TYPE", "delete_item", "path", p)));
        ApiClient.Answer answer = api.post(
                "/v0.10/delete",
                Map.of(
                        "DATA_TYPE",
                        "delete",
                        "endpoint",
                        "admin#ops",
                        "recursive",
                        recursive,
                        "ignore_missing",
                        ignoreMissing,
                        "DATA",
                        items));
        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(202);
        return answer.body().get("task_id").asString();
    }

    @Test
    void aTransferListsItsFilesAsSuccessfulTransfersAndItsLabelAndDeadlineChangeOnlyWhileActive() throws Exception {
        Path src = Files.createDirectories(root.resolve("st/src"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(src.resolve("f" + i), "data" + i);
        }
        ApiClient.Answer submitted = api.post(
                "/v0.10/transfer",
                Map.of(
                        "source_endpoint",
                        "admin#ops",
                        "destination_endpoint",
                        "admin#ops",
                        "label",
                        "first",
                        "DATA",
                        List.of(Map.of("source_path", "/st/src", "destination_path", "/st/dst", "recursive", true))));
        String taskId = submitted.body().get("task_id").asString();
        assertThat(submitted.body().get("task_link").get("href").asString()).contains(taskId);
        JsonNode done = TaskWaits.ended(api, taskId);
        assertThat(done.get("status").asString()).isEqualTo("SUCCEEDED");
        JsonNode successful =
                api.get("/v0.10/task/" + taskId + "/successful_transfers").body();
        assertThat(successful.get("DATA_TYPE").asString()).isEqualTo("successful_transfers");
        assertThat(successful.get("next_marker").isNull()).isTrue();
        assertThat(successful.get("DATA").findValuesAsString("destination_path"))
                .containsExactlyInAnyOrder("/st/dst/f0", "/st/dst/f1", "/st/dst/f2");
        assertThat(successful.get("DATA").get(0).get("size").asLong()).isEqualTo(5);
        assertThat(api.get("/v0.10/task/" + taskId + "/successful_transfers?marker=bogus")
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("marker");
        JsonNode skipped = api.get("/v0.10/task/" + taskId + "/skipped_errors").body();
        assertThat(skipped.get("DATA").size()).isZero();
        assertThat(api.get("/v0.10/task/" + taskId + "/pause_info")
                        .body()
                        .get("DATA_TYPE")
                        .asString())
                .isEqualTo("pause_info_limited");

        ApiClient.Answer late = api.put("/v0.10/task/" + taskId, Map.of("label", "second"));
        assertThat(late.status()).isEqualTo(409);
        assertThat(api.get("/v0.10/task/" + taskId).body().get("label").asString())
                .isEqualTo("first");
    }

    @Test
    void anActiveTasksLabelAndDeadlineChange() {
        // an endpoint nobody listens on keeps the task ACTIVE while its attempts fail and back off
        api.post("/v0.10/endpoint", Map.of("canonical_name", "admin#dead", "url", "ftp://127.0.0.1:1"));
        String taskId = api.post(
                        "/v0.10/transfer",
                        Map.of(
                                "source_endpoint",
                                "admin#dead",
                                "destination_endpoint",
                                "admin#ops",
                                "DATA",
                                List.of(Map.of("source_path", "/a", "destination_path", "/b"))))
                .body()
                .get("task_id")
                .asString();
        ApiClient.Answer updated = api.put(
                "/v0.10/task/" + taskId,
                Map.of("DATA_TYPE", "task", "label", "renamed", "deadline", "2099-01-01T00:00:00+00:00"));
        if (updated.status() == 200) {
            assertThat(updated.body().get("code").asString()).isEqualTo("Updated");
            JsonNode task = api.get("/v0.10/task/" + taskId).body();
            assertThat(task.get("label").asString()).isEqualTo("renamed");
            assertThat(task.get("deadline").asString()).isEqualTo("2099-01-01T00:00:00+00:00");
        } else {
            // the attempts ran out first: the task ended and refuses the change
            assertThat(updated.status()).isEqualTo(409);
        }
        assertThat(api.put("/v0.10/task/" + taskId, Map.of("deadline", "tomorrow"))
                        .body()
                        .get("field")
                        .asString())
                .isIn("deadline", "task_id");
        assertThat(api.put("/v0.10/task/" + taskId, Map.of("status", "SUCCEEDED"))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("status");
        api.post("/v0.10/task/" + taskId + "/cancel", Map.of());
    }

    @Test
    void everyTransferOptionFerryLacksIsRefusedByName() {
        Map<String, Object> refused = new java.util.LinkedHashMap<>();
        refused.put("source_local_user", "u");
        refused.put("destination_local_user", "u");
        refused.put("recursive_symlinks", "keep");
        refused.put("perf_cc", 4);
        refused.put("perf_p", 4);
        refused.put("perf_pp", 4);
        refused.put("perf_udt", true);
        refused.put("store_base_path_info", true);
        for (Map.Entry<String, Object> option : refused.entrySet()) {
            Map<String, Object> doc = transfer(Map.of());
            doc.put(option.getKey(), option.getValue());
            ApiClient.Answer answer = api.post("/v0.10/transfer", doc);
            assertThat(answer.status()).as(option.getKey()).isEqualTo(400);
            assertThat(answer.body().get("code").asString()).isEqualTo("ClientError.BadRequest.NotSupported");
            assertThat(answer.body().get("field").asString()).isEqualTo(option.getKey());
        }
        // encrypt_data is implemented, for gsiftp:// endpoints: on clear-text ones it cannot be
        Map<String, Object> encrypted = transfer(Map.of());
        encrypted.put("encrypt_data", true);
        ApiClient.Answer clear = api.post("/v0.10/transfer", encrypted);
        assertThat(clear.status()).isEqualTo(400);
        assertThat(clear.body().get("code").asString()).isEqualTo("ClientError.BadRequest");
        assertThat(clear.body().get("field").asString()).isEqualTo("encrypt_data");
        // checksums: six algorithms in any case; a given value must be hex of the algorithm's length
        // and only on a file item; one algorithm per task
        Map<Map<String, Object>, String> badChecksums = new java.util.LinkedHashMap<>();
        badChecksums.put(Map.of("external_checksum", "abc", "checksum_algorithm", "MD5"), "DATA[0].external_checksum");
        badChecksums.put(
                Map.of("external_checksum", "0".repeat(32), "checksum_algorithm", "sha1"), "DATA[0].external_checksum");
        badChecksums.put(
                Map.of("external_checksum", "zz".repeat(4), "checksum_algorithm", "ADLER32"),
                "DATA[0].external_checksum");
        badChecksums.put(Map.of("external_checksum", "0".repeat(32), "recursive", true), "DATA[0].external_checksum");
        badChecksums.put(Map.of("checksum_algorithm", "CRC32"), "DATA[0].checksum_algorithm");
        for (Map.Entry<Map<String, Object>, String> bad : badChecksums.entrySet()) {
            ApiClient.Answer refusedSum = api.post("/v0.10/transfer", transfer(bad.getKey()));
            assertThat(refusedSum.status()).as(bad.getKey().toString()).isEqualTo(400);
            assertThat(refusedSum.body().get("code").asString()).isEqualTo("ClientError.BadRequest");
            assertThat(refusedSum.body().get("field").asString())
                    .as(bad.getKey().toString())
                    .isEqualTo(bad.getValue());
        }
        Map<String, Object> unknownAlgorithm = transfer(Map.of());
        unknownAlgorithm.put("checksum_algorithm", "sha3");
        assertThat(api.post("/v0.10/transfer", unknownAlgorithm)
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("checksum_algorithm");
        Map<String, Object> twoAlgorithms = transfer(Map.of("checksum_algorithm", "md5"));
        twoAlgorithms.put("checksum_algorithm", "SHA512");
        assertThat(api.post("/v0.10/transfer", twoAlgorithms)
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("DATA[0].checksum_algorithm");
        Map<String, Object> given = transfer(Map.of("external_checksum", "0A1B2C3D", "checksum_algorithm", "crc32c"));
        given.put("skip_activation_check", true);
        ApiClient.Answer acceptedSum = api.post("/v0.10/transfer", given);
        assertThat(acceptedSum.status()).as(String.valueOf(acceptedSum.body())).isEqualTo(202);
        // the "off" values are accepted: a client that always sends them still works
        Map<String, Object> off = transfer(Map.of());
        off.put("notify_on_succeeded", false);
        off.put("encrypt_data", false);
        off.put("filter_rules", List.of());
        off.put("skip_activation_check", true);
        ApiClient.Answer accepted = api.post("/v0.10/transfer", off);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String offTask = accepted.body().get("task_id").asString();
        assertThat(api.get("/v0.10/task/" + offTask)
                        .body()
                        .get("preserve_timestamp")
                        .asBoolean())
                .isFalse();
        api.post("/v0.10/task/" + offTask + "/cancel", Map.of());
        // preserve_timestamp is implemented (issue 14): accepted, stored and echoed
        Map<String, Object> preserving = transfer(Map.of());
        preserving.put("preserve_timestamp", true);
        ApiClient.Answer preserved = api.post("/v0.10/transfer", preserving);
        assertThat(preserved.status()).as(String.valueOf(preserved.body())).isEqualTo(202);
        String preservedTask = preserved.body().get("task_id").asString();
        assertThat(api.get("/v0.10/task/" + preservedTask)
                        .body()
                        .get("preserve_timestamp")
                        .asBoolean())
                .isTrue();
        api.post("/v0.10/task/" + preservedTask + "/cancel", Map.of());
    }

    @Test
    void unknownFieldsWrongTypesAndLimitsAreNamed() {
        ApiClient.Answer unknownTop = api.post("/v0.10/transfer", transferWith("verify_checksums", true));
        assertThat(unknownTop.status()).isEqualTo(400);
        assertThat(unknownTop.body().get("field").asString()).isEqualTo("verify_checksums");
        ApiClient.Answer unknownItem = api.post("/v0.10/transfer", transfer(Map.of("recursiv", true)));
        assertThat(unknownItem.body().get("field").asString()).isEqualTo("DATA[0].recursiv");
        ApiClient.Answer wrongType = api.post("/v0.10/transfer", transfer(Map.of("recursive", Map.of("x", 1))));
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.body().get("field").asString()).isEqualTo("DATA[0].recursive");
        assertThat(api.post("/v0.10/transfer", transferWith("sync_level", "sometimes"))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("sync_level");
        assertThat(api.post("/v0.10/transfer", transferWith("deadline", "soon"))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("deadline");

        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            items.add(Map.of("source_path", "/a" + i, "destination_path", "/b" + i));
        }
        Map<String, Object> many = transfer(Map.of());
        many.put("DATA", items);
        ApiClient.Answer tooMany = api.post("/v0.10/transfer", many);
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().get("field").asString()).isEqualTo("DATA");
        assertThat(tooMany.body().get("message").asString()).contains("at most 50");

        Map<String, Object> huge = transfer(Map.of());
        huge.put("label", "x".repeat(70_000));
        ApiClient.Answer tooLarge = api.post("/v0.10/transfer", huge);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.body().get("code").asString()).isEqualTo("ClientError.RequestTooLarge");

        ApiClient.Answer method = api.request("PATCH", "/v0.10/task_list", null);
        assertThat(method.status()).isEqualTo(405);
        assertThat(method.body().get("DATA_TYPE").asString()).isEqualTo("error");
    }

    @Test
    void endpointUpdateSearchScopesAndServerList() {
        api.post("/v0.10/endpoint", Map.of("canonical_name", "admin#upd", "url", gridFtp.url()));
        ApiClient.Answer updated = api.put(
                "/v0.10/endpoint/admin%23upd",
                Map.of("display_name", "upd2", "description", "renamed endpoint", "public", true));
        assertThat(updated.body().get("code").asString()).isEqualTo("Updated");
        JsonNode shown = api.get("/v0.10/endpoint/admin%23upd2").body();
        assertThat(shown.get("description").asString()).isEqualTo("renamed endpoint");
        assertThat(shown.get("public").asBoolean()).isTrue();
        assertThat(api.get("/v0.10/endpoint/admin%23upd").status()).isEqualTo(404);
        // a fetched document sent back whole changes nothing it should not
        assertThat(api.put("/v0.10/endpoint/admin%23upd2", shown).status()).isEqualTo(200);
        assertThat(api.put("/v0.10/endpoint/admin%23upd2", Map.of("owner_string", "bob"))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("owner_string");

        JsonNode servers = api.get("/v0.10/endpoint/admin%23upd2/server_list").body();
        assertThat(servers.get("DATA_TYPE").asString()).isEqualTo("endpoint_server_list");
        assertThat(servers.get("DATA").get(0).get("uri").asString()).isEqualTo(gridFtp.url());

        JsonNode search = api.get("/v0.10/endpoint_search?filter_fulltext=renamed&filter_scope=my-endpoints")
                .body();
        assertThat(search.get("DATA").findValuesAsString("canonical_name")).containsExactly("admin#upd2");
        assertThat(search.get("has_next_page").asBoolean()).isFalse();
        assertThat(api.get("/v0.10/endpoint_search?filter_scope=everything")
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("filter_scope");
        assertThat(api.post("/v0.10/endpoint/admin%23upd2/autoactivate", Map.of())
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("AlreadyActivated");
    }

    @Test
    void theOpenApiDocumentDescribesTheApiWithGlobusNames() {
        ApiClient.Answer docs = api.withToken(null).get("/v3/api-docs");
        assertThat(docs.status()).isEqualTo(200);
        assertThat(docs.body().get("paths").has("/v0.10/transfer")).isTrue();
        assertThat(docs.body().get("paths").has("/v0.10/task/{taskId}/successful_transfers"))
                .isTrue();
        JsonNode transfer = docs.body().get("components").get("schemas").get("TransferRequest");
        assertThat(transfer.get("properties").has("DATA_TYPE")).isTrue();
        assertThat(transfer.get("properties").has("source_endpoint")).isTrue();
        assertThat(api.withToken(null).get("/swagger-ui/index.html").status()).isEqualTo(200);
    }

    private static Map<String, Object> transferWith(String key, Object value) {
        Map<String, Object> doc = transfer(Map.of());
        doc.put(key, value);
        return doc;
    }

    private static Map<String, Object> transfer(Map<String, Object> itemExtras) {
        Map<String, Object> item = new HashMap<>(Map.of("source_path", "/a", "destination_path", "/b"));
        item.putAll(itemExtras);
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", "admin#ops");
        doc.put("destination_endpoint", "admin#ops");
        doc.put("DATA", List.of(item));
        return doc;
    }
}
