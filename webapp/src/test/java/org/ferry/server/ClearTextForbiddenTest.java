package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code ferry.endpoints.allow-clear-text=false}: ftp:// endpoints are refused naming the field. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ClearTextForbiddenTest {

    private static final Path HOME = TestHomes.create("ferry-no-clear-text");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.endpoints.allow-clear-text", () -> "false");
    }

    @LocalServerPort
    int port;

    @Test
    void ftpEndpointsAreRefusedAndGsiftpOnesAccepted() throws IOException {
        ApiClient api =
                new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        ApiClient.Answer refused =
                api.post("/v0.10/endpoint", ApiClient.endpointDoc("admin#clear", "ftp://127.0.0.1:1"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().get("field").asString()).isEqualTo("url");
        assertThat(refused.body().get("message").asString()).contains("ferry.endpoints.allow-clear-text=false");
        ApiClient.Answer accepted = api.post(
                "/v0.10/endpoint",
                Map.of("DATA_TYPE", "endpoint", "canonical_name", "admin#grid", "url", "gsiftp://localhost:2811"));
        assertThat(accepted.status()).isEqualTo(201);
    }
}
