package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.scheduler.optimize.Optimizer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Users see and touch only their own tasks and private endpoints, over every route of the API:
 * one row per route, played as another user (and without credentials), against the real
 * server with a real GridFTP endpoint. {@link #everyRouteHasAnIsolationCase} fails when a route
 * is added without a row here.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiIsolationTest {

    private static final Path HOME = TestHomes.create("ferry-isolation");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    @Autowired
    Optimizer optimizer;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    TestGridFtp gridFtp;
    ApiClient alice;
    ApiClient bob;
    ApiClient admin;
    ApiClient anonymous;
    String aliceTask;
    String aliceTimer;
    String aliceTokenId;
    String aliceSshKeyId;
    String alicePrivateId;

    /** Public keys made once with ssh-keygen -t ed25519 (their private halves were thrown away). */
    static final String ALICE_SSH_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFlV89CTqk/Ib7omC/B0nnX5FMp5tI2nl+bB+MFvD6g9 alice";

    static final String BOB_SSH_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ6RppRvE0Zlmqo1zG8d1zw8QwxJD6hCZVTzLZEtormt bob";

    /**
     * One route: what the other user sends, and what must come back.
     *
     * @param method HTTP method
     * @param pattern the route as mapped
     * @param path the concrete path naming alice's resource
     * @param body the JSON body or null
     * @param bobStatus bob's expected status
     * @param check more checks of bob's answer, or null
     */
    record Case(String method, String pattern, String path, Object body, int bobStatus, Check check) {}

    interface Check {
        void on(JsonNode body);
    }

    @BeforeAll
    void setUp() throws Exception {
        Path root = Files.createDirectories(HOME.resolve("data"));
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/a.txt"), "alice's data\n");
        gridFtp = TestGridFtp.serve(root);
        admin = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        alice = new ApiClient(port, userToken("alice"));
        bob = new ApiClient(port, userToken("bob"));
        anonymous = new ApiClient(port, null);
        assertThat(alice.post("/v0.10/endpoint", endpoint("alice#private", false))
                        .status())
                .isEqualTo(201);
        assertThat(alice.post("/v0.10/endpoint", endpoint("alice#public", true)).status())
                .isEqualTo(201);
        JsonNode submitted = alice.post(
                        "/v0.10/transfer",
                        Map.of(
                                "source_endpoint",
                                "alice#private",
                                "destination_endpoint",
                                "alice#private",
                                "DATA",
                                List.of(Map.of("source_path", "/src/a.txt", "destination_path", "/dst/a.txt"))))
                .body();
        aliceTask = submitted.get("task_id").asString();
        assertThat(TaskWaits.ended(alice, aliceTask).get("status").asString()).isEqualTo("SUCCEEDED");
        JsonNode timer = alice.post(
                        "/v0.10/timer",
                        Map.of(
                                "timer",
                                Map.of(
                                        "name",
                                        "alice's nightly",
                                        "schedule",
                                        Map.of("type", "cron", "cron_expression", "0 0 2 * * ?"),
                                        "body",
                                        Map.of(
                                                "source_endpoint",
                                                "alice#private",
                                                "destination_endpoint",
                                                "alice#private",
                                                "DATA",
                                                List.of(Map.of(
                                                        "source_path",
                                                        "/src",
                                                        "destination_path",
                                                        "/nightly",
                                                        "recursive",
                                                        true))))))
                .body();
        aliceTimer = timer.get("job_id").asString();
        aliceTokenId = alice.get("/v0.10/access_token_list")
                .body()
                .get("DATA")
                .get(0)
                .get("id")
                .asString();
        // an interval of the optimizer ends: alice's pair (her private endpoint both ways) gets a
        // decision, which she sees and bob must not
        alicePrivateId =
                alice.get("/v0.10/endpoint/alice%23private").body().get("id").asString();
        assertThat(optimizer.decide(Instant.now(), List.of()))
                .anySatisfy(d -> assertThat(d.sourceEndpointId().toString()).isEqualTo(alicePrivateId));
        assertThat(alice.get("/v0.10/optimizer/current").body().get("DATA").findValuesAsString("source_endpoint_id"))
                .contains(alicePrivateId);
        ApiClient.Answer key = alice.post("/v0.10/ssh_key", Map.of("public_key", ALICE_SSH_KEY));
        assertThat(key.status()).as(String.valueOf(key.body())).isEqualTo(201);
        aliceSshKeyId = key.body().get("id").asString();
    }

    @AfterAll
    void tearDown() {
        gridFtp.close();
    }

    private String userToken(String name) {
        var account = accounts.create(name, Role.USER, "password-of-" + name);
        return tokens.create(AccountService.caller(account), "test", null).token();
    }

    private Map<String, Object> endpoint(String name, boolean isPublic) {
        return Map.of("canonical_name", name, "url", gridFtp.url(), "username", "anonymous", "public", isPublic);
    }

    private List<Case> cases() {
        String task = "/v0.10/task/" + aliceTask;
        String privateEp = "/v0.10/endpoint/alice%23private";
        String publicEp = "/v0.10/endpoint/alice%23public";
        String ops = "/v0.10/operation/endpoint/alice%23private";
        Map<String, Object> transfer = Map.of(
                "source_endpoint",
                "alice#private",
                "destination_endpoint",
                "bob-nowhere",
                "DATA",
                List.of(Map.of("source_path", "/src/a.txt", "destination_path", "/x")));
        List<Case> cases = new ArrayList<>();
        cases.add(new Case(
                "GET",
                "/v0.10/me",
                "/v0.10/me",
                null,
                200,
                b -> assertThat(b.get("username").asString()).isEqualTo("bob")));
        cases.add(new Case("GET", "/v0.10/endpoint_search", "/v0.10/endpoint_search?filter_scope=all", null, 200, b -> {
            assertThat(b.get("DATA").findValuesAsString("canonical_name"))
                    .contains("alice#public")
                    .doesNotContain("alice#private");
        }));
        cases.add(new Case(
                "POST",
                "/v0.10/endpoint",
                "/v0.10/endpoint",
                Map.of("canonical_name", "alice#intruder", "url", gridFtp.url()),
                400,
                b -> assertThat(b.get("field").asString()).isEqualTo("canonical_name")));
        cases.add(new Case("GET", "/v0.10/endpoint/{endpoint}", privateEp, null, 404, null));
        cases.add(new Case("PUT", "/v0.10/endpoint/{endpoint}", privateEp, Map.of("description", "mine"), 404, null));
        cases.add(new Case("DELETE", "/v0.10/endpoint/{endpoint}", privateEp, null, 404, null));
        cases.add(new Case("POST", "/v0.10/endpoint/{endpoint}/revoke", privateEp + "/revoke", null, 404, null));
        cases.add(
                new Case("GET", "/v0.10/endpoint/{endpoint}/server_list", privateEp + "/server_list", null, 404, null));
        cases.add(new Case(
                "GET", "/v0.10/endpoint/{endpoint}/server/{server}", privateEp + "/server/1", null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/endpoint/{endpoint}/server",
                privateEp + "/server",
                Map.of("uri", "ftp://127.0.0.1:1"),
                404,
                null));
        cases.add(new Case(
                "PUT",
                "/v0.10/endpoint/{endpoint}/server/{server}",
                privateEp + "/server/1",
                Map.of("port", 2),
                404,
                null));
        cases.add(new Case(
                "DELETE", "/v0.10/endpoint/{endpoint}/server/{server}", privateEp + "/server/1", null, 404, null));
        cases.add(new Case(
                "POST", "/v0.10/endpoint/{endpoint}/autoactivate", privateEp + "/autoactivate", null, 404, null));
        cases.add(
                new Case("POST", "/v0.10/endpoint/{endpoint}/deactivate", privateEp + "/deactivate", null, 404, null));
        cases.add(new Case(
                "GET",
                "/v0.10/endpoint/{endpoint}/activation_requirements",
                privateEp + "/activation_requirements",
                null,
                404,
                null));
        cases.add(new Case(
                "POST",
                "/v0.10/endpoint/{endpoint}/activate",
                privateEp + "/activate",
                Map.of("DATA_TYPE", "activation_requirements", "DATA", List.of()),
                404,
                null));
        cases.add(new Case("GET", "/v0.10/operation/endpoint/{endpoint}/ls", ops + "/ls?path=/src", null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/operation/endpoint/{endpoint}/mkdir",
                ops + "/mkdir",
                Map.of("path", "/evil"),
                404,
                null));
        cases.add(new Case(
                "POST",
                "/v0.10/operation/endpoint/{endpoint}/rename",
                ops + "/rename",
                Map.of("old_path", "/src/a.txt", "new_path", "/src/b.txt"),
                404,
                null));
        cases.add(new Case(
                "GET", "/v0.10/operation/endpoint/{endpoint}/stat", ops + "/stat?path=/src/a.txt", null, 404, null));
        cases.add(new Case("GET", "/v0.10/submission_id", "/v0.10/submission_id", null, 200, null));
        cases.add(new Case(
                "POST",
                "/v0.10/transfer",
                "/v0.10/transfer",
                transfer,
                404,
                b -> assertThat(b.get("field").asString()).isEqualTo("source_endpoint")));
        cases.add(new Case(
                "POST",
                "/v0.10/transfer/dry_run",
                "/v0.10/transfer/dry_run",
                transfer,
                404,
                b -> assertThat(b.get("field").asString()).isEqualTo("source_endpoint")));
        String timer = "/v0.10/timer/" + aliceTimer;
        cases.add(new Case(
                "POST",
                "/v0.10/timer",
                "/v0.10/timer",
                Map.of("timer", Map.of("schedule", Map.of("type", "once"), "body", transfer)),
                404,
                b -> assertThat(b.get("field").asString()).isEqualTo("timer.body.source_endpoint")));
        cases.add(new Case(
                "GET",
                "/v0.10/timer",
                "/v0.10/timer",
                null,
                200,
                b -> assertThat(b.get("timers").findValuesAsString("job_id")).doesNotContain(aliceTimer)));
        cases.add(new Case("GET", "/v0.10/timer/{id}", timer, null, 404, null));
        cases.add(new Case("PATCH", "/v0.10/timer/{id}", timer, Map.of("timer", Map.of("name", "bob's")), 404, null));
        cases.add(new Case("DELETE", "/v0.10/timer/{id}", timer, null, 404, null));
        cases.add(new Case("POST", "/v0.10/timer/{id}/pause", timer + "/pause", null, 404, null));
        cases.add(new Case("POST", "/v0.10/timer/{id}/resume", timer + "/resume", null, 404, null));
        cases.add(new Case("GET", "/v0.10/timer/{id}/runs", timer + "/runs", null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/delete",
                "/v0.10/delete",
                Map.of("endpoint", "alice#private", "DATA", List.of(Map.of("path", "/src/a.txt"))),
                404,
                b -> assertThat(b.get("field").asString()).isEqualTo("endpoint")));
        cases.add(new Case(
                "GET",
                "/v0.10/task_list",
                "/v0.10/task_list?limit=1000",
                null,
                200,
                b -> assertThat(b.get("DATA").findValuesAsString("task_id")).doesNotContain(aliceTask)));
        cases.add(new Case("GET", "/v0.10/task/{taskId}", task, null, 404, null));
        cases.add(new Case("PUT", "/v0.10/task/{taskId}", task, Map.of("label", "bob was here"), 404, null));
        cases.add(new Case("POST", "/v0.10/task/{taskId}/cancel", task + "/cancel", null, 404, null));
        cases.add(new Case("GET", "/v0.10/task/{taskId}/event_list", task + "/event_list", null, 404, null));
        cases.add(new Case(
                "GET", "/v0.10/task/{taskId}/successful_transfers", task + "/successful_transfers", null, 404, null));
        cases.add(new Case("GET", "/v0.10/task/{taskId}/skipped_errors", task + "/skipped_errors", null, 404, null));
        cases.add(new Case("GET", "/v0.10/task/{taskId}/pause_info", task + "/pause_info", null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/access_token",
                "/v0.10/access_token",
                Map.of("description", "bob's"),
                201,
                b -> assertThat(b.get("username").asString()).isEqualTo("bob")));
        cases.add(new Case(
                "GET",
                "/v0.10/access_token_list",
                "/v0.10/access_token_list",
                null,
                200,
                b -> assertThat(b.get("DATA").findValuesAsString("id")).doesNotContain(aliceTokenId)));
        cases.add(new Case(
                "DELETE", "/v0.10/access_token/{tokenId}", "/v0.10/access_token/" + aliceTokenId, null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/ssh_key",
                "/v0.10/ssh_key",
                Map.of("public_key", BOB_SSH_KEY),
                201,
                b -> assertThat(b.get("username").asString()).isEqualTo("bob")));
        cases.add(new Case(
                "GET",
                "/v0.10/ssh_key_list",
                "/v0.10/ssh_key_list",
                null,
                200,
                b -> assertThat(b.get("DATA").findValuesAsString("id")).doesNotContain(aliceSshKeyId)));
        cases.add(new Case("DELETE", "/v0.10/ssh_key/{keyId}", "/v0.10/ssh_key/" + aliceSshKeyId, null, 404, null));
        cases.add(new Case(
                "POST",
                "/v0.10/user",
                "/v0.10/user",
                Map.of("username", "mallory", "password", "12345678"),
                403,
                null));
        cases.add(new Case(
                "GET",
                "/v0.10/endpoint/{endpoint}/optimizer_limits",
                privateEp + "/optimizer_limits",
                null,
                404,
                null));
        cases.add(new Case(
                "PUT",
                "/v0.10/endpoint/{endpoint}/optimizer_limits",
                privateEp + "/optimizer_limits",
                Map.of("max_concurrency", 1),
                403,
                null));
        cases.add(new Case("GET", "/v0.10/optimizer/current", "/v0.10/optimizer/current", null, 200, b -> {
            assertThat(b.get("DATA").findValuesAsString("source_endpoint_id")).doesNotContain(alicePrivateId);
            assertThat(b.get("DATA").findValuesAsString("destination_endpoint_id"))
                    .doesNotContain(alicePrivateId);
        }));
        cases.add(new Case(
                "GET",
                "/v0.10/optimizer/evolution",
                "/v0.10/optimizer/evolution?source=" + alicePrivateId + "&destination=" + alicePrivateId,
                null,
                404,
                null));
        cases.add(new Case("GET", "/v0.10/user_list", "/v0.10/user_list", null, 403, null));
        cases.add(new Case("GET", "/v0.10/user/{name}", "/v0.10/user/alice", null, 403, null));
        cases.add(new Case("PUT", "/v0.10/user/{name}", "/v0.10/user/alice", Map.of("disabled", true), 403, null));
        return cases;
    }

    @Test
    void everyRouteHasAnIsolationCase() {
        Set<String> routes = new TreeSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            for (String pattern : info.getPatternValues()) {
                if (pattern.startsWith("/v0.10")) {
                    for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                        routes.add(method.name() + " " + pattern);
                    }
                }
            }
        }
        Set<String> covered = new TreeSet<>();
        cases().forEach(c -> covered.add(c.method() + " " + c.pattern()));
        assertThat(covered).as("isolation cases, one per API route").isEqualTo(routes);
    }

    @Test
    void anotherUserGetsNothingOfAlicesAndNothingChanges() throws IOException {
        for (Case c : cases()) {
            ApiClient.Answer answer = bob.request(c.method(), c.path(), c.body());
            assertThat(answer.status())
                    .as(c.method() + " " + c.path() + ": " + answer.body())
                    .isEqualTo(c.bobStatus());
            if (answer.status() >= 400) {
                assertThat(answer.body().get("DATA_TYPE").asString()).isEqualTo("error");
                assertThat(answer.body().get("request_id").asString()).isNotBlank();
            }
            if (c.check() != null) {
                c.check().on(answer.body());
            }
        }
        // alice's things are as they were
        assertThat(alice.get("/v0.10/endpoint/alice%23private").status()).isEqualTo(200);
        assertThat(alice.get("/v0.10/endpoint/alice%23private")
                        .body()
                        .get("description")
                        .isNull())
                .isTrue();
        assertThat(alice.get("/v0.10/task/" + aliceTask).body().get("label").isNull())
                .isTrue();
        assertThat(Files.exists(HOME.resolve("data/src/a.txt"))).isTrue();
        JsonNode timer = alice.get("/v0.10/timer/" + aliceTimer).body();
        assertThat(timer.get("name").asString()).isEqualTo("alice's nightly");
        assertThat(timer.get("status").asString()).isEqualTo("active");
        assertThat(Files.exists(HOME.resolve("data/evil"))).isFalse();
        assertThat(alice.get("/v0.10/access_token_list").body().get("DATA").findValuesAsString("id"))
                .contains(aliceTokenId);
        JsonNode limit = alice.get("/v0.10/endpoint/alice%23private/optimizer_limits")
                .body()
                .get("max_concurrency");
        assertThat(limit == null || limit.isNull())
                .as("alice's limits untouched")
                .isTrue();
    }

    @Test
    void everyRouteWithoutCredentialsIs401WithAHint() {
        for (Case c : cases()) {
            ApiClient.Answer answer = anonymous.request(c.method(), c.path(), c.body());
            assertThat(answer.status()).as(c.method() + " " + c.path()).isEqualTo(401);
            assertThat(answer.body().get("code").asString()).isEqualTo("AuthenticationFailed");
            assertThat(answer.body().get("message").asString()).contains("ferry login");
            assertThat(answer.headers().allValues("WWW-Authenticate")).anyMatch(h -> h.startsWith("Bearer"));
        }
    }

    @Test
    void aPublicEndpointIsSeenAndUsedByOthersButChangedOnlyByItsOwner() {
        assertThat(bob.get("/v0.10/endpoint/alice%23public").status()).isEqualTo(200);
        assertThat(bob.get("/v0.10/operation/endpoint/alice%23public/ls?path=/src")
                        .body()
                        .get("DATA")
                        .findValuesAsString("name"))
                .contains("a.txt");
        ApiClient.Answer change = bob.put("/v0.10/endpoint/alice%23public", Map.of("description", "bob's now"));
        assertThat(change.status()).isEqualTo(403);
        assertThat(change.body().get("code").asString()).isEqualTo("ClientError.PermissionDenied");
        assertThat(bob.delete("/v0.10/endpoint/alice%23public").status()).isEqualTo(403);
    }

    /**
     * The optimizer is the site's: an admin reads every pair's decisions, at {@code /optimizer/current}
     * and at {@code /optimizer/evolution} alike (also of another user's private endpoints, by id or
     * name), while another user gets 404 for them.
     */
    @Test
    void anAdminReadsEveryPairsOptimizerEvolutionAnotherUserGets404() {
        assertThat(admin.get("/v0.10/optimizer/current").body().get("DATA").findValuesAsString("source_endpoint_id"))
                .contains(alicePrivateId);
        String byId = "/v0.10/optimizer/evolution?source=" + alicePrivateId + "&destination=" + alicePrivateId;
        for (String path :
                List.of(byId, "/v0.10/optimizer/evolution?source=alice%23private&destination=alice%23private")) {
            ApiClient.Answer read = admin.get(path);
            assertThat(read.status()).as(path + " " + read.body()).isEqualTo(200);
            assertThat(read.body().get("DATA").findValuesAsString("source_endpoint_id"))
                    .isNotEmpty()
                    .containsOnly(alicePrivateId);
        }
        assertThat(alice.get(byId).status()).isEqualTo(200);
        ApiClient.Answer hidden = bob.get(byId);
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.body().get("field").asString()).isEqualTo("source");
        assertThat(bob.get("/v0.10/optimizer/evolution?source=alice%23private&destination=alice%23private")
                        .status())
                .isEqualTo(404);
        // an endpoint that exists nowhere is 404 for an admin too
        assertThat(admin.get("/v0.10/optimizer/evolution?source=" + UUID.randomUUID() + "&destination="
                                + alicePrivateId)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void anAdminSeesAndCancelsEveryTaskButNotPrivateEndpoints() {
        assertThat(admin.get("/v0.10/task/" + aliceTask).status()).isEqualTo(200);
        assertThat(admin.get("/v0.10/task/" + aliceTask + "/event_list").status())
                .isEqualTo(200);
        assertThat(admin.get("/v0.10/task_list?limit=1000").body().get("DATA").findValuesAsString("task_id"))
                .contains(aliceTask);
        assertThat(admin.post("/v0.10/task/" + aliceTask + "/cancel", Map.of())
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("TaskComplete");
        assertThat(admin.get("/v0.10/endpoint/alice%23private").status()).isEqualTo(404);
        assertThat(admin.get("/v0.10/user_list").body().get("DATA").findValuesAsString("username"))
                .contains("alice", "bob", "admin");
    }
}
