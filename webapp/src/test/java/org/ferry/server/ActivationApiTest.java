package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The activation resources and what depends on them, over real HTTP with a real H2 database: the
 * v0.10 documents for endpoints that need no activation and for {@code gsiftp://} ones, refusals
 * at submission (an endpoint not activated, {@code encrypt_data} on a clear-text one), a task
 * accepted with {@code skip_activation_check} waiting INACTIVE with a {@code NO_CREDENTIALS} event
 * and then cancelled or expired, and endpoint passwords sealed at rest and never logged.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class ActivationApiTest {

    private static final Path HOME = TestHomes.create("ferry-activation");
    private static final String PASSWORD = "pw-that-must-stay-sealed-7431";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.max-attempts", () -> "1");
        registry.add("ferry.gsi.ca-dir", () -> HOME.resolve("no-cas").toString());
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    ApiClient api;

    @BeforeEach
    void connect() throws IOException {
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
    }

    private static Map<String, Object> endpoint(String name, String url, String password) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "endpoint");
        doc.put("canonical_name", name);
        doc.put("url", url);
        if (password != null) {
            doc.put("username", "alice");
            doc.put("password", password);
        }
        return doc;
    }

    @Test
    void aClearTextEndpointNeedsNoActivationAndItsPasswordIsSealed(CapturedOutput output) {
        JsonNode created = api.post("/v0.10/endpoint", endpoint("admin#plain", "ftp://127.0.0.1:1", PASSWORD))
                .body();
        assertThat(created.get("activated").asBoolean()).isTrue();
        assertThat(created.get("expires_in").asLong()).isEqualTo(-1);
        assertThat(created.toString()).doesNotContain(PASSWORD);
        String sealed = jdbc.queryForObject(
                "SELECT password_sealed FROM endpoint WHERE canonical_name = 'admin#plain'", String.class);
        assertThat(sealed).startsWith("fc1:").doesNotContain(PASSWORD);

        JsonNode requirements =
                api.get("/v0.10/endpoint/admin%23plain/activation_requirements").body();
        assertThat(requirements.get("DATA_TYPE").asString()).isEqualTo("activation_requirements");
        assertThat(requirements.get("activated").asBoolean()).isTrue();
        assertThat(requirements.get("expires_in").asLong()).isEqualTo(-1);
        assertThat(requirements.get("DATA")).isEmpty();
        JsonNode auto = api.post("/v0.10/endpoint/admin%23plain/autoactivate?if_expires_in=60", Map.of())
                .body();
        assertThat(auto.get("code").asString()).isEqualTo("AlreadyActivated");

        // a login attempt (nothing listens there) and a task on it: still never in the log
        assertThat(api.get("/v0.10/operation/endpoint/admin%23plain/ls?path=/").status())
                .isEqualTo(502);
        assertThat(output.getAll()).doesNotContain(PASSWORD);
        // the Spring bean migration that seals passwords of earlier versions ran
        assertThat(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM \"flyway_schema_history\" WHERE \"version\" = '4' AND \"success\"",
                        Integer.class))
                .isEqualTo(1);
    }

    @Test
    void aGsiEndpointOffersMyProxyAndDelegateProxyRequirements() {
        Map<String, Object> doc = endpoint("admin#grid", "gsiftp://localhost:1", null);
        doc.put("myproxy_server", "myproxy.example.org:7512");
        JsonNode created = api.post("/v0.10/endpoint", doc).body();
        assertThat(created.get("activated").asBoolean()).isFalse();
        assertThat(created.get("expires_in").asLong()).isZero();
        assertThat(created.get("myproxy_server").asString()).isEqualTo("myproxy.example.org:7512");

        JsonNode requirements =
                api.get("/v0.10/endpoint/admin%23grid/activation_requirements").body();
        assertThat(requirements.get("activated").asBoolean()).isFalse();
        assertThat(requirements.get("auto_activation_supported").asBoolean()).isTrue();
        Map<String, JsonNode> byName = new HashMap<>();
        requirements
                .get("DATA")
                .forEach(r -> byName.put(
                        r.get("type").asString() + "." + r.get("name").asString(), r));
        assertThat(byName)
                .containsKeys(
                        "myproxy.hostname",
                        "myproxy.username",
                        "myproxy.passphrase",
                        "myproxy.server_dn",
                        "myproxy.lifetime_in_hours",
                        "myproxy.bootstrap_trust",
                        "delegate_proxy.public_key",
                        "delegate_proxy.proxy_chain");
        assertThat(byName.get("myproxy.hostname").get("value").asString()).isEqualTo("myproxy.example.org:7512");
        assertThat(byName.get("myproxy.passphrase").get("private").asBoolean()).isTrue();
        String publicKey = byName.get("delegate_proxy.public_key").get("value").asString();
        assertThat(publicKey).startsWith("-----BEGIN PUBLIC KEY-----");
        // the same key pair until it is used
        assertThat(api.get("/v0.10/endpoint/admin%23grid/activation_requirements")
                        .body()
                        .toString())
                .contains(publicKey.substring(30, 90));
        assertThat(jdbc.queryForObject("SELECT sealed_private_key FROM delegation_request", String.class))
                .startsWith("fc1:");

        JsonNode auto =
                api.post("/v0.10/endpoint/admin%23grid/autoactivate", Map.of()).body();
        assertThat(auto.get("code").asString()).isEqualTo("AutoActivationFailed");
        assertThat(auto.get("DATA")).isNotEmpty();

        ApiClient.Answer empty = api.post(
                "/v0.10/endpoint/admin%23grid/activate",
                Map.of("DATA_TYPE", "activation_requirements", "DATA", List.of()));
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.body().get("field").asString()).isEqualTo("DATA");
        ApiClient.Answer withKey = api.post(
                "/v0.10/endpoint/admin%23grid/activate",
                Map.of(
                        "DATA_TYPE",
                        "activation_requirements",
                        "DATA",
                        List.of(Map.of(
                                "type",
                                "delegate_proxy",
                                "name",
                                "proxy_chain",
                                "value",
                                "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"))));
        assertThat(withKey.status()).isEqualTo(400);
        assertThat(withKey.body().get("code").asString()).isEqualTo("ClientError.ActivationFailed");
        assertThat(withKey.body().get("message").asString()).contains("certificates only");

        ApiClient.Answer ls = api.get("/v0.10/operation/endpoint/admin%23grid/ls?path=/");
        assertThat(ls.status()).isEqualTo(409);
        assertThat(ls.body().get("code").asString()).isEqualTo("ClientError.ActivationRequired");
        assertThat(ls.body().get("message").asString())
                .contains("admin#grid is not activated", "ferry endpoint activate admin#grid");
    }

    @Test
    void submissionRefusesWhatCannotWorkAndSkipActivationCheckWaitsInactive() throws Exception {
        api.post("/v0.10/endpoint", endpoint("admin#clear", "ftp://127.0.0.1:1", null));
        api.post("/v0.10/endpoint", endpoint("admin#gsi-a", "gsiftp://localhost:1", null));
        api.post("/v0.10/endpoint", endpoint("admin#gsi-b", "gsiftp://localhost:2", null));

        Map<String, Object> encrypted = RestApiTest.transfer("admin#clear", "admin#gsi-a", null, "/a", "/b");
        encrypted.put("encrypt_data", true);
        ApiClient.Answer refused = api.post("/v0.10/transfer", encrypted);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().get("field").asString()).isEqualTo("encrypt_data");
        assertThat(refused.body().get("message").asString()).contains("admin#clear is a clear-text endpoint");

        ApiClient.Answer notActivated =
                api.post("/v0.10/transfer", RestApiTest.transfer("admin#gsi-a", "admin#gsi-b", null, "/a", "/b"));
        assertThat(notActivated.status()).isEqualTo(409);
        assertThat(notActivated.body().get("code").asString()).isEqualTo("ClientError.ActivationRequired");
        assertThat(notActivated.body().get("field").asString()).isEqualTo("source_endpoint");

        Map<String, Object> waiting = RestApiTest.transfer("admin#gsi-a", "admin#gsi-b", null, "/a", "/b");
        waiting.put("skip_activation_check", true);
        waiting.put("encrypt_data", true);
        String taskId =
                api.post("/v0.10/transfer", waiting).body().get("task_id").asString();
        JsonNode inactive = awaitStatus(taskId, "INACTIVE");
        assertThat(inactive.get("encrypt_data").asBoolean()).isTrue();
        assertThat(inactive.get("nice_status").asString()).isEqualTo("NO_CREDENTIALS");
        JsonNode event = api.get("/v0.10/task/" + taskId + "/event_list")
                .body()
                .get("DATA")
                .get(0);
        assertThat(event.get("code").asString()).isEqualTo("NO_CREDENTIALS");
        assertThat(event.get("is_error").asBoolean()).isTrue();
        assertThat(event.get("description").asString())
                .contains("admin#gsi-a is not activated", "resumes by itself when the endpoint is activated");
        assertThat(api.get("/v0.10/task_list?filter=status:INACTIVE").body().toString())
                .contains(taskId);

        JsonNode canceled =
                api.post("/v0.10/task/" + taskId + "/cancel", Map.of()).body();
        assertThat(canceled.get("code").asString()).isEqualTo("Canceled");
        assertThat(api.get("/v0.10/task/" + taskId).body().get("status").asString())
                .isEqualTo("FAILED");

        Map<String, Object> withDeadline = RestApiTest.transfer("admin#gsi-a", "admin#gsi-b", null, "/a", "/b");
        withDeadline.put("skip_activation_check", true);
        withDeadline.put("deadline", Instant.now().plus(Duration.ofSeconds(3)).toString());
        String expiring =
                api.post("/v0.10/transfer", withDeadline).body().get("task_id").asString();
        JsonNode expired = awaitStatus(expiring, "FAILED");
        assertThat(expired.get("fatal_error").get("code").asString()).isEqualTo("EXPIRED");
        assertThat(expired.get("fatal_error").get("description").asString()).contains("while it was INACTIVE");
    }

    /**
     * An institution's public gsiftp:// endpoint: another user sees it, gets a key pair of their
     * own to delegate to, is not activated by the owner's activation, and cannot deactivate it for
     * the owner.
     */
    @Test
    void eachUserActivatesAPublicGsiEndpointForThemselves() {
        Map<String, Object> doc = endpoint("admin#site", "gsiftp://localhost:3", null);
        doc.put("public", true);
        assertThat(api.post("/v0.10/endpoint", doc).status()).isEqualTo(201);
        var account = accounts.create("carol", Role.USER, "password-of-carol");
        ApiClient carol = new ApiClient(
                port,
                tokens.create(AccountService.caller(account), "test", null).token());
        JsonNode forAdmin =
                api.get("/v0.10/endpoint/admin%23site/activation_requirements").body();
        JsonNode forCarol = carol.get("/v0.10/endpoint/admin%23site/activation_requirements")
                .body();
        assertThat(forCarol.get("activated").asBoolean()).isFalse();
        assertThat(publicKey(forCarol)).startsWith("-----BEGIN PUBLIC KEY-----").isNotEqualTo(publicKey(forAdmin));
        ApiClient.Answer deactivate = carol.post("/v0.10/endpoint/admin%23site/deactivate", Map.of());
        assertThat(deactivate.status()).isEqualTo(409);
        assertThat(deactivate.body().get("code").asString()).isEqualTo("ClientError.Conflict.NotActivated");
        assertThat(carol.get("/v0.10/operation/endpoint/admin%23site/ls?path=/")
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("ClientError.ActivationRequired");
    }

    private static String publicKey(JsonNode requirements) {
        for (JsonNode r : requirements.get("DATA")) {
            if (r.get("name").asString().equals("public_key")) {
                return r.get("value").asString();
            }
        }
        return null;
    }

    private JsonNode awaitStatus(String taskId, String status) {
        return await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .alias("task " + taskId + " " + status)
                .until(
                        () -> api.get("/v0.10/task/" + taskId).body(),
                        task -> task.get("status").asString().equals(status));
    }
}
