package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** Accounts, passwords, roles and access tokens over real HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IdentityTest {

    private static final Path HOME = TestHomes.create("ferry-identity");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    ApiClient admin;

    @BeforeEach
    void connect() throws Exception {
        admin = new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
    }

    private ApiClient.Answer createUser(String name, String password, String role) {
        return admin.post(
                "/v0.10/user",
                role == null
                        ? Map.of("username", name, "password", password)
                        : Map.of("username", name, "password", password, "role", role));
    }

    @Test
    void theFirstStartAdminIsAnAdminByToken() {
        JsonNode me = admin.get("/v0.10/me").body();
        assertThat(me.get("username").asString()).isEqualTo("admin");
        assertThat(me.get("role").asString()).isEqualTo("ADMIN");
        assertThat(me.get("authentication").asString()).isEqualTo("TOKEN");
    }

    @Test
    void anAdminCreatesAUserWhoLogsInWithAPasswordAndGetsATokenThatWorksUntilRevoked() {
        ApiClient.Answer created = createUser("carol", "carols-secret", null);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().get("role").asString()).isEqualTo("USER");
        assertThat(created.body().has("password")).isFalse();
        assertThat(createUser("carol", "another-secret", null).status()).isEqualTo(409);

        ApiClient password = admin.withPassword("carol", "carols-secret");
        assertThat(password.get("/v0.10/me").body().get("authentication").asString())
                .isEqualTo("PASSWORD");
        ApiClient.Answer login =
                password.post("/v0.10/access_token", Map.of("description", "laptop", "expires_in", 3600));
        assertThat(login.status()).isEqualTo(201);
        String token = login.body().get("token").asString();
        assertThat(login.body().get("expires_time").asString()).isNotBlank();

        ApiClient carol = admin.withToken(token);
        assertThat(carol.get("/v0.10/me").body().get("username").asString()).isEqualTo("carol");
        JsonNode list = carol.get("/v0.10/access_token_list").body();
        assertThat(list.toString()).doesNotContain(token);
        String tokenId = login.body().get("id").asString();
        assertThat(list.get("DATA").findValuesAsString("id")).contains(tokenId);

        assertThat(carol.delete("/v0.10/access_token/" + tokenId)
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("Revoked");
        ApiClient.Answer revoked = carol.get("/v0.10/me");
        assertThat(revoked.status()).isEqualTo(401);
        assertThat(revoked.body().get("message").asString()).contains("unknown, expired or revoked");
        assertThat(revoked.headers().allValues("WWW-Authenticate"))
                .contains("Bearer realm=\"ferry\", error=\"invalid_token\"");
    }

    @Test
    void aWrongPasswordOrADisabledAccountIs401() {
        createUser("dave", "daves-secret", null);
        String token = admin.withPassword("dave", "daves-secret")
                .post("/v0.10/access_token", Map.of())
                .body()
                .get("token")
                .asString();
        assertThat(admin.withPassword("dave", "wrong-password").get("/v0.10/me").status())
                .isEqualTo(401);
        assertThat(admin.withPassword("nobody", "daves-secret").get("/v0.10/me").status())
                .isEqualTo(401);

        assertThat(admin.put("/v0.10/user/dave", Map.of("disabled", true))
                        .body()
                        .get("disabled")
                        .asBoolean())
                .isTrue();
        assertThat(admin.withToken(token).get("/v0.10/me").status()).isEqualTo(401);
        assertThat(admin.withPassword("dave", "daves-secret").get("/v0.10/me").status())
                .isEqualTo(401);
        admin.put("/v0.10/user/dave", Map.of("disabled", false));
        assertThat(admin.withToken(token).get("/v0.10/me").status()).isEqualTo(200);
    }

    @Test
    void anExpiredTokenIs401() {
        createUser("erin", "erins-secret", null);
        ApiClient erin = admin.withPassword("erin", "erins-secret");
        ApiClient.Answer past = erin.post("/v0.10/access_token", Map.of("expires_time", "2001-01-01T00:00:00Z"));
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.body().get("field").asString()).isEqualTo("expires_time");
        assertThat(erin.post("/v0.10/access_token", Map.of("expires_in", -5))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("expires_in");
    }

    @Test
    void aUserWithoutTheAdminRoleGets403OnAccounts() {
        createUser("frank", "franks-secret", null);
        ApiClient frank = admin.withPassword("frank", "franks-secret");
        for (ApiClient.Answer answer : new ApiClient.Answer[] {
            frank.get("/v0.10/user_list"),
            frank.post("/v0.10/user", Map.of("username", "x", "password", "12345678")),
            frank.put("/v0.10/user/frank", Map.of("role", "ADMIN"))
        }) {
            assertThat(answer.status()).isEqualTo(403);
            assertThat(answer.body().get("code").asString()).isEqualTo("ClientError.PermissionDenied");
        }
        admin.put("/v0.10/user/frank", Map.of("role", "ADMIN"));
        assertThat(frank.get("/v0.10/user_list").status()).isEqualTo(200);
    }

    @Test
    void accountRequestsAreCheckedFieldByField() {
        assertThat(createUser("bad name", "12345678", null).body().get("field").asString())
                .isEqualTo("username");
        assertThat(createUser("shorty", "1234", null).body().get("field").asString())
                .isEqualTo("password");
        assertThat(createUser("roley", "12345678", "ROOT").body().get("field").asString())
                .isEqualTo("role");
        ApiClient.Answer unknown = admin.post("/v0.10/user", Map.of("username", "u", "shell", "/bin/sh"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body().get("field").asString()).isEqualTo("shell");
    }
}
