package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A task left ACTIVE when the server stops is resumed by the next server on the same FERRY_HOME:
 * the first server cannot reach the destination (it is down) and keeps retrying; after a restart,
 * with the destination up, the task succeeds.
 */
class ResumeAfterRestartTest {

    @Test
    void activeTaskIsResumedAfterRestart() throws IOException {
        Path home = TestHomes.create("ferry-resume-home");
        Path siteA = TestHomes.create("ferry-resume-a");
        Path siteB = TestHomes.create("ferry-resume-b");
        byte[] content = new byte[200_000];
        new Random(7).nextBytes(content);
        Files.createDirectories(siteA.resolve("data/sub"));
        Files.write(siteA.resolve("data/sub/file.bin"), content);
        Files.write(siteA.resolve("data/top.bin"), content);

        GridFtpServerConfig configB = GridFtpServerConfig.loopback(siteB).withAnonymousAllowed(true);
        int portB;
        try (GridFtpServer probe = GridFtpServer.start(configB)) {
            portB = probe.port(); // reserve a port, then leave the destination down
        }
        try (GridFtpServer serverA =
                GridFtpServer.start(GridFtpServerConfig.loopback(siteA).withAnonymousAllowed(true))) {
            String taskId;
            try (ConfigurableApplicationContext first = start(home)) {
                ApiClient api = client(first, home);
                api.post(
                        "/v0.10/endpoint",
                        Map.of("canonical_name", "admin#a", "url", "ftp://127.0.0.1:" + serverA.port()));
                api.post("/v0.10/endpoint", Map.of("canonical_name", "admin#b", "url", "ftp://127.0.0.1:" + portB));
                taskId = api.post(
                                "/v0.10/transfer",
                                Map.of(
                                        "source_endpoint",
                                        "admin#a",
                                        "destination_endpoint",
                                        "admin#b",
                                        "DATA",
                                        List.of(Map.of(
                                                "source_path",
                                                "/data",
                                                "destination_path",
                                                "/data",
                                                "recursive",
                                                true))))
                        .body()
                        .get("task_id")
                        .asString();
                JsonNode faulted = await(
                        api,
                        taskId,
                        t -> t.get("faults").asLong() > 0
                                && "CONNECT_FAILED".equals(t.get("nice_status").asString()));
                assertThat(faulted.get("status").asString()).isEqualTo("ACTIVE");
                assertThat(faulted.get("nice_status").asString()).isEqualTo("CONNECT_FAILED");
            }
            try (GridFtpServer serverB = GridFtpServer.start(configB.withPort(portB));
                    ConfigurableApplicationContext second = start(home)) {
                ApiClient api = client(second, home);
                JsonNode task =
                        await(api, taskId, t -> !t.get("status").asString().equals("ACTIVE"));
                assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
                assertThat(task.get("files_transferred").asLong()).isEqualTo(2);
                assertThat(Files.readAllBytes(siteB.resolve("data/sub/file.bin")))
                        .isEqualTo(content);
                List<String> codes = api.get("/v0.10/task/" + taskId + "/event_list")
                        .body()
                        .get("DATA")
                        .findValuesAsString("code");
                assertThat(codes.stream().filter("STARTED"::equals)).hasSize(1);
                assertThat(codes).contains("CONNECT_FAILED", "SUCCEEDED");
            }
        }
    }

    private static ConfigurableApplicationContext start(Path home) {
        // command-line arguments: they outrank application.properties, as with bin/ferry-server
        return new SpringApplicationBuilder(FerryServerApplication.class)
                .run(
                        "--ferry.home=" + home,
                        "--server.port=0",
                        "--ferry.transfer.retry-initial-backoff=200ms",
                        "--ferry.transfer.retry-max-backoff=1s",
                        "--ferry.personal-endpoint.root=");
    }

    private static ApiClient client(ConfigurableApplicationContext context, Path home) throws IOException {
        int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
        return new ApiClient(port, Files.readString(home.resolve("token")).trim());
    }

    private static JsonNode await(ApiClient api, String taskId, Predicate<JsonNode> condition) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .alias("task " + taskId)
                .until(() -> api.get("/v0.10/task/" + taskId).body(), condition);
    }
}
