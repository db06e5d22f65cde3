package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.scheduler.optimize.Optimizer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The optimizer through the running server, between two real Ferry GridFTP servers: an admin's
 * limits at {@code /endpoint/{id}/optimizer_limits} (a 400 naming the field for a bad value, 403
 * for a user who is not an admin), a task whose chunks keep to the destination's maximum of one session pair and one
 * data connection, an interval ended by the test ({@link Optimizer#decide} with the time it
 * chooses; the server's own interval is an hour), and its decision at {@code /optimizer/current},
 * {@code /optimizer/evolution} and in {@code /actuator/prometheus}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OptimizerApiTest {

    private static final Path HOME = TestHomes.create("ferry-optimizer");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.optimizer.interval", () -> "1h");
        registry.add("ferry.transfer.chunk-max-files", () -> "4"); // several chunks: each must keep to the limit
    }

    @LocalServerPort
    int port;

    @Autowired
    Optimizer optimizer;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void limitsBindTheDispatchAndDecisionsShowAtRestAndInPrometheus() throws Exception {
        Path siteA = Files.createDirectories(HOME.resolve("site-a"));
        Path siteB = Files.createDirectories(HOME.resolve("site-b"));
        Files.createDirectories(siteA.resolve("run"));
        for (int i = 0; i < 12; i++) {
            Files.writeString(siteA.resolve("run/f" + i + ".txt"), "file " + i + "\n".repeat(1000 + i));
        }
        String adminToken = Files.readString(HOME.resolve("token")).trim();
        ApiClient admin = new ApiClient(port, adminToken);
        try (TestGridFtp serverA = TestGridFtp.serve(siteA);
                TestGridFtp serverB = TestGridFtp.serve(siteB)) {
            assertThat(admin.post("/v0.10/endpoint", Map.of("canonical_name", "admin#a", "url", serverA.url()))
                            .status())
                    .isEqualTo(201);
            JsonNode b = admin.post("/v0.10/endpoint", Map.of("canonical_name", "admin#b", "url", serverB.url()))
                    .body();
            String bId = b.get("id").asString();

            // bad values: 400 naming the field; a user may read but not change
            ApiClient.Answer zero =
                    admin.put("/v0.10/endpoint/admin%23b/optimizer_limits", Map.of("max_concurrency", 0));
            assertThat(zero.status()).isEqualTo(400);
            assertThat(zero.body().get("field").asString()).isEqualTo("max_concurrency");
            ApiClient.Answer crossed = admin.put(
                    "/v0.10/endpoint/admin%23b/optimizer_limits", Map.of("min_concurrency", 5, "max_concurrency", 2));
            assertThat(crossed.status()).isEqualTo(400);
            assertThat(crossed.body().get("field").asString()).isEqualTo("min_concurrency");
            ApiClient.Answer words =
                    admin.put("/v0.10/endpoint/admin%23b/optimizer_limits", Map.of("max_parallelism", "many"));
            assertThat(words.status()).isEqualTo(400);
            assertThat(words.body().get("field").asString()).isEqualTo("max_parallelism");
            assertThat(admin.post("/v0.10/user", Map.of("username", "dora", "password", "doras-secret"))
                            .status())
                    .isEqualTo(201);
            ApiClient dora = admin.withPassword("dora", "doras-secret");
            assertThat(dora.put("/v0.10/endpoint/" + bId + "/optimizer_limits", Map.of("max_concurrency", 50))
                            .status())
                    .isEqualTo(403);

            ApiClient.Answer set = admin.put(
                    "/v0.10/endpoint/admin%23b/optimizer_limits", Map.of("max_concurrency", 1, "max_parallelism", 1));
            assertThat(set.status()).as(String.valueOf(set.body())).isEqualTo(200);
            assertThat(set.body().get("max_concurrency").asInt()).isEqualTo(1);
            assertThat(set.body().get("min_concurrency").isNull()).isTrue();
            JsonNode read =
                    admin.get("/v0.10/endpoint/admin%23b/optimizer_limits").body();
            assertThat(read.get("max_concurrency").asInt()).isEqualTo(1);
            assertThat(read.get("endpoint_id").asString()).isEqualTo(bId);

            Map<String, Object> transfer =
                    new HashMap<>(RestApiTest.transfer("admin#a", "admin#b", null, "/run", "/run"));
            @SuppressWarnings("unchecked")
            Map<String, Object> item = new HashMap<>(((List<Map<String, Object>>) transfer.get("DATA")).get(0));
            item.put("recursive", true);
            transfer.put("DATA", List.of(item));
            ApiClient.Answer accepted = admin.post("/v0.10/transfer", transfer);
            assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
            String taskId = accepted.body().get("task_id").asString();
            JsonNode done = TaskWaits.ended(admin, taskId);
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
            assertThat(done.get("files_transferred").asLong()).isEqualTo(12);
            // every chunk of the task opened one session pair: the destination's maximum
            List<Integer> sessions = jdbc.queryForList(
                    "select session_pairs from chunk where task_id = ?", Integer.class, UUID.fromString(taskId));
            assertThat(sessions).hasSizeGreaterThanOrEqualTo(3).allMatch(s -> s == 1);

            // the test ends the interval: the pair's decision keeps to the limits
            List<OptimizerDecision> decided = optimizer.decide(Instant.now(), List.of());
            assertThat(decided).hasSize(1);
            OptimizerDecision decision = decided.get(0);
            assertThat(decision.filesSucceeded()).isEqualTo(12);
            assertThat(decision.concurrency()).isEqualTo(1);
            assertThat(decision.parallelism()).isEqualTo(1);
            assertThat(decision.maxConcurrency()).isEqualTo(1);

            JsonNode current = admin.get("/v0.10/optimizer/current").body();
            assertThat(current.get("DATA_TYPE").asString()).isEqualTo("optimizer_decision_list");
            JsonNode shown = current.get("DATA").get(0);
            assertThat(shown.get("destination_endpoint_id").asString()).isEqualTo(bId);
            assertThat(shown.get("files_succeeded").asInt()).isEqualTo(12);
            assertThat(shown.get("concurrency").asInt()).isEqualTo(1);
            assertThat(shown.get("reason").asString()).isNotBlank();
            JsonNode evolution = admin.get("/v0.10/optimizer/evolution?source=admin%23a&destination=admin%23b")
                    .body()
                    .get("DATA");
            assertThat(evolution).hasSize(1);
            assertThat(admin.get("/v0.10/optimizer/evolution?source=admin%23a&destination=admin%23b&limit=0")
                            .body()
                            .get("field")
                            .asString())
                    .isEqualTo("limit");

            String scrape = prometheus(adminToken);
            List<String> series = new ArrayList<>();
            scrape.lines().filter(l -> l.startsWith("ferry_optimizer_")).forEach(series::add);
            assertThat(series)
                    .as(scrape)
                    .anySatisfy(l -> assertThat(l)
                            .startsWith("ferry_optimizer_concurrency{")
                            .contains("destination=\"" + bId + "\"")
                            .endsWith(" 1.0"))
                    .anySatisfy(l -> assertThat(l).startsWith("ferry_optimizer_success_rate{"))
                    .anySatisfy(l -> assertThat(l).startsWith("ferry_optimizer_throughput_ema_bytes_per_second{"));

            // a deleted endpoint's pair leaves the current decisions (its rows wait for retention)
            assertThat(admin.delete("/v0.10/endpoint/admin%23b").status()).isEqualTo(200);
            assertThat(admin.get("/v0.10/optimizer/current").body().get("DATA")).isEmpty();
        }
    }

    private String prometheus(String token) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                                .header("Authorization", "Bearer " + token)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body();
    }
}
