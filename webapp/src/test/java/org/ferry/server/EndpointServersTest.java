package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A logical endpoint over several GridFTP servers (the historical Globus server list), over real
 * HTTP with real Ferry GridFTP servers: servers are added, changed and removed by the owner, the
 * endpoint's url follows its first server, the servers share one scheme and the last cannot go;
 * with one of two servers down, listings and transfers go to the other.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EndpointServersTest {

    private static final Path HOME = TestHomes.create("ferry-servers");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.max-attempts", () -> "2");
    }

    @LocalServerPort
    int port;

    private ApiClient api;
    private Path shared;
    private Path target;
    private TestGridFtp first;
    private TestGridFtp second;
    private TestGridFtp destination;

    @BeforeEach
    void start() throws IOException {
        api = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        shared = Files.createTempDirectory(HOME, "shared");
        target = Files.createTempDirectory(HOME, "target");
        first = TestGridFtp.serve(shared);
        second = TestGridFtp.serve(shared);
        destination = TestGridFtp.serve(target);
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
        destination.close();
    }

    @Test
    void theOwnerKeepsTheListAndTheUrlFollowsTheFirstServer() {
        String name = "admin%23pair-" + port + "-" + System.nanoTime();
        String canonical = name.replace("%23", "#");
        api.post("/v0.10/endpoint", Map.of("canonical_name", canonical, "url", first.url()));
        JsonNode list = api.get("/v0.10/endpoint/" + name + "/server_list").body();
        assertThat(list.get("DATA")).hasSize(1);
        long firstId = list.get("DATA").get(0).get("id").asLong();
        assertThat(firstId).isPositive();

        ApiClient.Answer added =
                api.post("/v0.10/endpoint/" + name + "/server", Map.of("DATA_TYPE", "server", "uri", second.url()));
        assertThat(added.status()).isEqualTo(201);
        assertThat(added.body().get("code").asString()).isEqualTo("Created");
        long secondId = added.body().get("id").asLong();
        JsonNode endpoint = api.get("/v0.10/endpoint/" + name).body();
        assertThat(endpoint.get("DATA").findValuesAsString("uri")).containsExactly(first.url(), second.url());
        assertThat(endpoint.get("url").asString()).isEqualTo(first.url());
        assertThat(api.get("/v0.10/endpoint/" + name + "/server/" + secondId)
                        .body()
                        .get("uri")
                        .asString())
                .isEqualTo(second.url());

        ApiClient.Answer mixed =
                api.post("/v0.10/endpoint/" + name + "/server", Map.of("uri", "gsiftp://localhost:2811"));
        assertThat(mixed.status()).isEqualTo(400);
        assertThat(mixed.body().get("field").asString()).isEqualTo("scheme");
        assertThat(api.post("/v0.10/endpoint/" + name + "/server", Map.of("uri", second.url()))
                        .status())
                .isEqualTo(409);
        assertThat(api.put(
                                "/v0.10/endpoint/" + name + "/server/" + secondId,
                                Map.of("subject", "/O=Grid/CN=host/elsewhere"))
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("Updated");

        assertThat(api.delete("/v0.10/endpoint/" + name + "/server/" + firstId).status())
                .isEqualTo(200);
        assertThat(api.get("/v0.10/endpoint/" + name).body().get("url").asString())
                .as("the url follows the first server")
                .isEqualTo(second.url());
        ApiClient.Answer last = api.delete("/v0.10/endpoint/" + name + "/server/" + secondId);
        assertThat(last.status()).isEqualTo(409);
        assertThat(last.body().get("field").asString()).isEqualTo("server_id");
        assertThat(api.get("/v0.10/endpoint/" + name + "/server/" + firstId).status())
                .isEqualTo(404);
    }

    @Test
    void withOneServerDownListingsAndTransfersGoToTheOther() throws Exception {
        Files.createDirectories(shared.resolve("tree/sub"));
        Files.writeString(shared.resolve("tree/a.txt"), "a\n");
        Files.writeString(shared.resolve("tree/sub/b.txt"), "b\n");
        String source = "admin#fail-" + System.nanoTime();
        String sink = "admin#sink-" + System.nanoTime();
        api.post("/v0.10/endpoint", Map.of("canonical_name", source, "url", first.url()));
        api.post("/v0.10/endpoint", Map.of("canonical_name", sink, "url", destination.url()));
        String path = "/v0.10/endpoint/" + source.replace("#", "%23");
        assertThat(api.post(path + "/server", Map.of("uri", second.url())).status())
                .isEqualTo(201);
        first.close();

        // every session starts at a random server: all must reach the one that is up
        for (int i = 0; i < 6; i++) {
            ApiClient.Answer ls = api.get("/v0.10/operation/endpoint/" + source.replace("#", "%23") + "/ls?path=/tree");
            assertThat(ls.status()).as(String.valueOf(ls.body())).isEqualTo(200);
            assertThat(ls.body().get("DATA").findValuesAsString("name")).contains("a.txt", "sub");
        }
        Map<String, Object> doc = new java.util.HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", source);
        doc.put("destination_endpoint", sink);
        doc.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        "/tree",
                        "destination_path",
                        "/copy",
                        "recursive",
                        true)));
        String taskId = api.post("/v0.10/transfer", doc).body().get("task_id").asString();
        JsonNode task = TaskWaits.ended(api, taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(Files.readString(target.resolve("copy/sub/b.txt"))).isEqualTo("b\n");
    }
}
