package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.store.TaskListQuery;
import org.ferry.api.store.TaskListRows;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.drive.TaskEnding;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/** The REST contract over real HTTP, with a real H2 database in a temporary FERRY_HOME. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RestApiTest {

    private static final Path HOME = TestHomes.create("ferry-rest");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        // retries must not slow down tests whose endpoints do not exist
        registry.add("ferry.transfer.max-attempts", () -> "1");
        registry.add("ferry.transfer.retry-initial-backoff", () -> "100ms");
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    @Autowired
    TaskStore taskRows;

    @Autowired
    TaskEnding ending;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    TaskRepository taskRepository;

    @Autowired
    TaskListRows taskList;

    @Autowired
    JdbcTemplate jdbc;

    ApiClient api;

    @BeforeEach
    void connect() throws IOException {
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
    }

    @Test
    void tokenFileIsPrivate() throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(HOME.resolve("token"))))
                .isEqualTo("rw-------");
    }

    @Test
    void requestWithoutTokenGets401WithErrorBody() {
        ApiClient.Answer answer = api.withToken(null).get("/v0.10/task_list");
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.body().get("DATA_TYPE").asString()).isEqualTo("error");
        assertThat(answer.body().get("code").asString()).isEqualTo("AuthenticationFailed");
        assertThat(api.withToken("wrong").get("/v0.10/task_list").status()).isEqualTo(401);
    }

    @Test
    void requestWithTokenGets200() {
        ApiClient.Answer answer = api.get("/v0.10/task_list");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().get("DATA_TYPE").asString()).isEqualTo("task_list");
        assertThat(answer.body().get("limit").asInt()).isEqualTo(10);
    }

    @Test
    void endpointCreateShowSearchDelete() {
        ApiClient.Answer created =
                api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#crud", "ftp://127.0.0.1:1"));
        assertThat(created.status()).isEqualTo(201);
        JsonNode doc = created.body();
        assertThat(doc.get("DATA_TYPE").asString()).isEqualTo("endpoint");
        assertThat(doc.get("canonical_name").asString()).isEqualTo("admin#crud");
        assertThat(doc.get("display_name").asString()).isEqualTo("crud");
        assertThat(doc.get("owner_string").asString()).isEqualTo("admin");
        assertThat(doc.get("username").asString()).isEqualTo("ferry");
        assertThat(doc.has("password")).isFalse();
        String id = doc.get("id").asString();

        assertThat(api.get("/v0.10/endpoint/" + id).body().get("canonical_name").asString())
                .isEqualTo("admin#crud");
        assertThat(api.get("/v0.10/endpoint/admin%23crud").body().get("id").asString())
                .isEqualTo(id);
        JsonNode search = api.get("/v0.10/endpoint_search?filter_fulltext=CRU").body();
        assertThat(search.get("DATA_TYPE").asString()).isEqualTo("endpoint_list");
        assertThat(search.get("DATA").get(0).get("id").asString()).isEqualTo(id);
        assertThat(search.toString()).doesNotContain("secret-password");

        assertThat(api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#crud", "ftp://127.0.0.1:1"))
                        .status())
                .isEqualTo(409);
        ApiClient.Answer deleted = api.delete("/v0.10/endpoint/" + id);
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.body().get("code").asString()).isEqualTo("Deleted");
        ApiClient.Answer gone = api.get("/v0.10/endpoint/" + id);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.body().get("code").asString()).isEqualTo("ClientError.NotFound");
    }

    /**
     * A server list sent with a new endpoint makes its servers, in order (it used to be dropped:
     * an endpoint created with three servers got one); an update cannot change it.
     */
    @Test
    void anEndpointCreatedWithThreeServersHasThree() {
        ApiClient.Answer created = api.post(
                "/v0.10/endpoint",
                Map.of(
                        "canonical_name",
                        "admin#three",
                        "DATA",
                        List.of(
                                Map.of("DATA_TYPE", "server", "uri", "ftp://127.0.0.1:2001"),
                                Map.of("DATA_TYPE", "server", "scheme", "ftp", "hostname", "127.0.0.1", "port", 2002),
                                Map.of("DATA_TYPE", "server", "uri", "ftp://127.0.0.1:2003"))));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        assertThat(created.body().get("url").asString()).isEqualTo("ftp://127.0.0.1:2001");
        JsonNode servers =
                api.get("/v0.10/endpoint/admin%23three/server_list").body().get("DATA");
        assertThat(servers.findValuesAsString("uri"))
                .containsExactly("ftp://127.0.0.1:2001", "ftp://127.0.0.1:2002", "ftp://127.0.0.1:2003");
        assertBadRequest(
                api.put("/v0.10/endpoint/admin%23three", Map.of("DATA", List.of(Map.of("uri", "ftp://127.0.0.1:9")))),
                "DATA");
        assertBadRequest(
                api.post(
                        "/v0.10/endpoint",
                        Map.of(
                                "canonical_name",
                                "admin#mixed",
                                "DATA",
                                List.of(
                                        Map.of("uri", "ftp://127.0.0.1:2001"),
                                        Map.of("uri", "gsiftp://127.0.0.1:2002")))),
                "DATA[1].scheme");
        assertBadRequest(
                api.post(
                        "/v0.10/endpoint", Map.of("canonical_name", "admin#ro", "url", "ftp://127.0.0.1:1", "id", "x")),
                "id");
    }

    @Test
    void endpointOfAnotherOwnerIsRejectedNamingTheField() {
        ApiClient.Answer answer = api.post("/v0.10/endpoint", ApiClient.endpointDoc("bob#x", "ftp://127.0.0.1:1"));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body().get("code").asString()).isEqualTo("ClientError.BadRequest");
        assertThat(answer.body().get("field").asString()).isEqualTo("canonical_name");
        ApiClient.Answer badUrl = api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#y", "http://x"));
        assertThat(badUrl.status()).isEqualTo(400);
        assertThat(badUrl.body().get("field").asString()).isEqualTo("url");
    }

    @Test
    void lsOfUnreachableEndpointIs502() {
        api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#unreachable", "ftp://127.0.0.1:1"));
        ApiClient.Answer answer = api.get("/v0.10/operation/endpoint/admin%23unreachable/ls?path=/");
        assertThat(answer.status()).isEqualTo(502);
        assertThat(answer.body().get("code").asString()).isEqualTo("EndpointError");
        assertThat(api.get("/v0.10/operation/endpoint/admin%23nope/ls").status())
                .isEqualTo(404);
        assertThat(api.get("/v0.10/operation/endpoint/admin%23unreachable/ls?path=rel")
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("path");
    }

    @Test
    void transferValidationNamesTheField() {
        twoEndpoints("v");
        Map<String, Object> noData = Map.of(
                "DATA_TYPE", "transfer", "source_endpoint", "admin#v-src", "destination_endpoint", "admin#v-dst");
        assertBadRequest(api.post("/v0.10/transfer", noData), "DATA");
        assertBadRequest(
                api.post("/v0.10/transfer", transfer("admin#v-src", "admin#v-dst", null, "src", "/dst")),
                "DATA[0].source_path");
        assertBadRequest(
                api.post("/v0.10/transfer", transfer("admin#v-src", "admin#v-dst", null, "/src", "")),
                "DATA[0].destination_path");
        Map<String, Object> badSync = new HashMap<>(transfer("admin#v-src", "admin#v-dst", null, "/a", "/b"));
        badSync.put("sync_level", 7);
        assertBadRequest(api.post("/v0.10/transfer", badSync), "sync_level");
        Map<String, Object> badLabel = new HashMap<>(transfer("admin#v-src", "admin#v-dst", null, "/a", "/b"));
        badLabel.put("label", "x".repeat(129));
        assertBadRequest(api.post("/v0.10/transfer", badLabel), "label");
        assertBadRequest(api.postRaw("/v0.10/transfer", "not json"), null);
        // accepted before, failing later: a deadline that has passed, a path above the root
        Map<String, Object> late = new HashMap<>(transfer("admin#v-src", "admin#v-dst", null, "/a", "/b"));
        late.put("deadline", "2001-01-01T00:00:00Z");
        assertBadRequest(api.post("/v0.10/transfer", late), "deadline");
        assertBadRequest(
                api.post("/v0.10/transfer", transfer("admin#v-src", "admin#v-dst", null, "/a/../../etc", "/b")),
                "DATA[0].source_path");
        assertBadRequest(
                api.post(
                        "/v0.10/delete",
                        Map.of(
                                "endpoint",
                                "admin#v-src",
                                "deadline",
                                "2001-01-01T00:00:00Z",
                                "DATA",
                                List.of(Map.of("path", "/x")))),
                "deadline");

        ApiClient.Answer unknown = api.post("/v0.10/transfer", transfer("admin#v-src", "admin#none", null, "/a", "/b"));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().get("field").asString()).isEqualTo("destination_endpoint");
    }

    @Test
    void submissionIdIsDeduplicated() {
        twoEndpoints("d");
        ApiClient.Answer id = api.get("/v0.10/submission_id");
        assertThat(id.body().get("DATA_TYPE").asString()).isEqualTo("submission_id");
        String submissionId = id.body().get("value").asString();
        ApiClient.Answer first =
                api.post("/v0.10/transfer", transfer("admin#d-src", "admin#d-dst", submissionId, "/a", "/b"));
        assertThat(first.status()).isEqualTo(202);
        assertThat(first.body().get("code").asString()).isEqualTo("Accepted");
        assertThat(first.body().get("DATA_TYPE").asString()).isEqualTo("transfer_result");
        ApiClient.Answer second =
                api.post("/v0.10/transfer", transfer("admin#d-src", "admin#d-dst", submissionId, "/a", "/b"));
        assertThat(second.body().get("code").asString()).isEqualTo("Duplicate");
        assertThat(second.body().get("task_id").asString())
                .isEqualTo(first.body().get("task_id").asString());
    }

    @Test
    void taskAndEventListUseGlobusFieldNamesAndCancelEndsTheTask() {
        twoEndpoints("t");
        String taskId = api.post("/v0.10/transfer", transfer("admin#t-src", "admin#t-dst", null, "/a", "/b"))
                .body()
                .get("task_id")
                .asString();
        JsonNode task = api.get("/v0.10/task/" + taskId).body();
        for (String field : List.of(
                "DATA_TYPE",
                "task_id",
                "type",
                "status",
                "nice_status",
                "label",
                "owner_string",
                "request_time",
                "completion_time",
                "deadline",
                "source_endpoint",
                "source_endpoint_id",
                "destination_endpoint",
                "destination_endpoint_id",
                "sync_level",
                "verify_checksum",
                "files",
                "directories",
                "files_transferred",
                "files_skipped",
                "bytes_transferred",
                "effective_bytes_per_second",
                "faults",
                "subtasks_total",
                "subtasks_pending",
                "subtasks_succeeded",
                "subtasks_failed",
                "fatal_error")) {
            assertThat(task.has(field)).as(field).isTrue();
        }
        assertThat(task.get("type").asString()).isEqualTo("TRANSFER");
        assertThat(task.get("source_endpoint").asString()).isEqualTo("admin#t-src");
        assertThat(task.get("request_time").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\+00:00");

        JsonNode list = api.get("/v0.10/task_list?limit=1000").body();
        assertThat(list.get("DATA").findValuesAsString("task_id")).contains(taskId);

        ApiClient.Answer canceled = api.post("/v0.10/task/" + taskId + "/cancel", Map.of());
        assertThat(canceled.status()).isEqualTo(200);
        JsonNode ended = api.get("/v0.10/task/" + taskId).body();
        assertThat(ended.get("status").asString()).isEqualTo("FAILED");
        // the scheduler may have failed the task first (its endpoints do not exist); either way it ended
        if (canceled.body().get("code").asString().equals("Canceled")) {
            assertThat(ended.get("fatal_error").get("code").asString()).isEqualTo("CANCELED");
            JsonNode events = api.get("/v0.10/task/" + taskId + "/event_list").body();
            assertThat(events.get("DATA_TYPE").asString()).isEqualTo("event_list");
            JsonNode newest = events.get("DATA").get(0);
            assertThat(newest.get("DATA_TYPE").asString()).isEqualTo("event");
            assertThat(newest.get("code").asString()).isEqualTo("CANCELED");
            for (String field : List.of("is_error", "description", "details", "time")) {
                assertThat(newest.has(field)).as(field).isTrue();
            }
        } else {
            assertThat(canceled.body().get("code").asString()).isEqualTo("TaskComplete");
        }
        assertThat(api.post("/v0.10/task/" + taskId + "/cancel", Map.of())
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("TaskComplete");
        assertThat(api.get("/v0.10/task_list?filter=status:ACTIVE&limit=1000")
                        .body()
                        .get("DATA")
                        .findValuesAsString("task_id"))
                .doesNotContain(taskId);
    }

    @Test
    void aFaultReportedAfterTheCancelAddsNoEventAfterIt() {
        // what a mover's attempt still in flight reports once the owner has cancelled: the race
        // of a real cancel, played in the order that used to put CONNECT_FAILED after CANCELED
        twoEndpoints("late");
        String taskId = api.post("/v0.10/transfer", transfer("admin#late-src", "admin#late-dst", null, "/a", "/b"))
                .body()
                .get("task_id")
                .asString();
        api.post("/v0.10/task/" + taskId + "/cancel", Map.of());
        UUID id = UUID.fromString(taskId);
        Boolean written = transactions.execute(
                status -> taskRows.eventIfActive(id, EventCode.CONNECT_FAILED, "late fault", null));
        assertThat(written).isFalse();
        assertThat(ending.fail(id, "CONNECT_FAILED", "late fault")).isFalse();
        JsonNode events = api.get("/v0.10/task/" + taskId + "/event_list").body();
        assertThat(events.get("DATA").findValuesAsString("description")).doesNotContain("late fault");
        assertThat(events.get("DATA").get(0).get("code").asString()).isIn("CANCELED", "CONNECT_FAILED");
        JsonNode task = api.get("/v0.10/task/" + taskId).body();
        assertThat(task.get("status").asString()).isEqualTo("FAILED");
    }

    @Test
    void theTaskListReadsEachTaskAsJpaLoadsItAndPagesByIds() {
        twoEndpoints("rows");
        String first = api.post("/v0.10/transfer", transfer("admin#rows-src", "admin#rows-dst", null, "/a", "/b"))
                .body()
                .get("task_id")
                .asString();
        String second = api.post("/v0.10/transfer", transfer("admin#rows-src", "admin#rows-dst", null, "/c", "/d"))
                .body()
                .get("task_id")
                .asString();
        api.post("/v0.10/task/" + first + "/cancel", Map.of());
        UUID id = UUID.fromString(first);
        // every column that may be null gets a value, so that one the plain SQL read leaves out shows
        jdbc.update(
                "update task set label = 'rows', nice_status = 'X', start_time = completion_time,"
                        + " retry_after = completion_time, lease_owner = 'elsewhere', lease_expires = completion_time,"
                        + " sync_level = 2, filter_rules = '[]', bytes_transferred = 7, bytes_in_flight = 3,"
                        + " consecutive_faults = 2 where id = ?",
                id);
        Task loaded = taskRepository.findById(id).orElseThrow();
        assertThat(loaded).hasNoNullFieldsOrProperties();
        Task read = taskList.page(new TaskListQuery().idIn(List.of(id)), 1, 0)
                .tasks()
                .get(0);
        assertThat(read).usingRecursiveComparison().isEqualTo(loaded);

        JsonNode page = api.get("/v0.10/task_list?limit=1&filter=task_id:" + first + "," + second)
                .body();
        assertThat(page.get("DATA").findValuesAsString("task_id")).containsExactly(second);
        assertThat(page.get("total").asLong()).isEqualTo(2);
        assertThat(page.get("has_next_page").asBoolean()).isTrue();
        JsonNode last = api.get("/v0.10/task_list?limit=1&offset=1&filter=task_id:" + first + "," + second)
                .body();
        assertThat(last.get("DATA").findValuesAsString("task_id")).containsExactly(first);
        assertThat(last.get("total").asLong()).isEqualTo(2);
        assertThat(last.get("has_next_page").asBoolean()).isFalse();
        assertThat(api.get("/v0.10/task_list?filter=task_id:" + first + "/label:~r?w*")
                        .body()
                        .get("DATA")
                        .findValuesAsString("task_id"))
                .containsExactly(first);
        assertThat(api.get("/v0.10/task_list?filter=task_id:" + first + "," + second + "/label:!~r?w*")
                        .body()
                        .get("DATA")
                        .findValuesAsString("task_id"))
                .containsExactly(second);
    }

    @Test
    void anotherUserSeesNeitherEndpointsNorTasksOfTheAdmin() {
        UserAccount bobAccount = accounts.create("bob", Role.USER, null);
        String bobsToken =
                tokens.create(AccountService.caller(bobAccount), null, null).token();
        twoEndpoints("o");
        String taskId = api.post("/v0.10/transfer", transfer("admin#o-src", "admin#o-dst", null, "/a", "/b"))
                .body()
                .get("task_id")
                .asString();
        ApiClient bob = api.withToken(bobsToken);
        assertThat(bob.get("/v0.10/endpoint/admin%23o-src").status()).isEqualTo(404);
        assertThat(bob.get("/v0.10/task/" + taskId).status()).isEqualTo(404);
        assertThat(bob.post("/v0.10/task/" + taskId + "/cancel", Map.of()).status())
                .isEqualTo(404);
        assertThat(bob.get("/v0.10/task_list").body().get("total").asLong()).isZero();
        ApiClient.Answer foreign = bob.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#bobs", "ftp://h:1"));
        assertThat(foreign.status()).isEqualTo(400);
        assertThat(foreign.body().get("field").asString()).isEqualTo("canonical_name");
        ApiClient.Answer transfer =
                bob.post("/v0.10/transfer", transfer("admin#o-src", "admin#o-dst", null, "/a", "/b"));
        assertThat(transfer.status()).isEqualTo(404);
        assertThat(transfer.body().get("field").asString()).isEqualTo("source_endpoint");
    }

    @Test
    void revokedTokenAndDisabledAccountAreRefusedRightAway() {
        UserAccount carol = accounts.create("carol", Role.USER, null);
        AccessTokenService.Issued first = tokens.create(AccountService.caller(carol), null, null);
        String second = tokens.create(AccountService.caller(carol), null, null).token();
        ApiClient asFirst = api.withToken(first.token());
        ApiClient asSecond = api.withToken(second);
        // used, so that this server holds both checks
        assertThat(asFirst.get("/v0.10/task_list").status()).isEqualTo(200);
        assertThat(asSecond.get("/v0.10/task_list").status()).isEqualTo(200);

        assertThat(asFirst.delete("/v0.10/access_token/" + first.row().getId()).status())
                .isEqualTo(200);
        assertThat(asFirst.get("/v0.10/task_list").status()).isEqualTo(401);
        assertThat(asSecond.get("/v0.10/task_list").status()).isEqualTo(200);

        accounts.update("carol", true, null, null);
        assertThat(asSecond.get("/v0.10/task_list").status()).isEqualTo(401);
        accounts.update("carol", false, null, null);
        assertThat(asSecond.get("/v0.10/task_list").status()).isEqualTo(200);
    }

    @Test
    void unknownTaskIs404() {
        ApiClient.Answer answer = api.get("/v0.10/task/" + UUID.randomUUID());
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body().get("code").asString()).isEqualTo("ClientError.NotFound");
        assertThat(api.get("/v0.10/task/not-a-uuid/event_list").status()).isEqualTo(404);
        ApiClient.Answer unknownPath = api.get("/v0.10/no_such_resource");
        assertThat(unknownPath.status()).isEqualTo(404);
        assertThat(unknownPath.body().get("DATA_TYPE").asString()).isEqualTo("error");
    }

    private void twoEndpoints(String prefix) {
        api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#" + prefix + "-src", "ftp://127.0.0.1:1"));
        api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#" + prefix + "-dst", "ftp://127.0.0.1:1"));
    }

    static Map<String, Object> transfer(
            String source, String destination, String submissionId, String sourcePath, String destinationPath) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", source);
        doc.put("destination_endpoint", destination);
        if (submissionId != null) {
            doc.put("submission_id", submissionId);
        }
        doc.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        false)));
        return doc;
    }

    private static void assertBadRequest(ApiClient.Answer answer, String field) {
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body().get("code").asString()).isEqualTo("ClientError.BadRequest");
        if (field != null) {
            assertThat(answer.body().get("field").asString()).isEqualTo(field);
        }
    }
}
