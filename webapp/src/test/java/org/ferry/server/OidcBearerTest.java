package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccountService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bearer JWTs of an institution's OpenID Connect provider: a real Spring Authorization Server,
 * started by this test on a free port, issues client-credentials tokens whose {@code sub} (the
 * client id) names a Ferry account; Ferry finds the provider by its issuer's discovery document
 * and checks signatures with its JWK set.
 */
@SpringBootTest(classes = FerryServerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcBearerTest {

    private static final Path HOME = TestHomes.create("ferry-oidc");
    private static final ConfigurableApplicationContext PROVIDER = startProvider();

    private static ConfigurableApplicationContext startProvider() {
        Map<String, Object> properties = new java.util.HashMap<>();
        properties.put("server.port", "0");
        properties.put("server.address", "127.0.0.1");
        properties.put("spring.datasource.url", "jdbc:h2:mem:oidc-provider;DB_CLOSE_DELAY=-1");
        properties.put("spring.flyway.enabled", "false");
        properties.put("ferry.home", HOME.resolve("provider").toString());
        properties.put("springdoc.api-docs.enabled", "false");
        for (String client : new String[] {"oidc-alice", "oidc-nobody"}) {
            String prefix = "spring.security.oauth2.authorizationserver.client." + client + ".registration.";
            properties.put(prefix + "client-id", client);
            properties.put(prefix + "client-secret", "{noop}secret-of-" + client);
            properties.put(prefix + "client-authentication-methods", "client_secret_basic");
            properties.put(prefix + "authorization-grant-types", "client_credentials");
            properties.put(prefix + "scopes", "ferry");
        }
        // as command-line arguments: default properties would lose to ferry-server's
        // application.properties on the test classpath (its port 8080 and FERRY_HOME database,
        // which another process may hold)
        String[] arguments = properties.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(oidcprovider.OidcProvider.class).run(arguments);
    }

    private static String issuer() {
        return "http://127.0.0.1:"
                + ((WebServerApplicationContext) PROVIDER).getWebServer().getPort();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.oidc.issuer-uri", OidcBearerTest::issuer);
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @BeforeAll
    void account() {
        accounts.create("oidc-alice", Role.USER, null);
    }

    @AfterAll
    void stopProvider() {
        PROVIDER.close();
    }

    private static String token(String client) throws Exception {
        String basic =
                Base64.getEncoder().encodeToString((client + ":secret-of-" + client).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(issuer() + "/oauth2/token"))
                                .header("Authorization", "Basic " + basic)
                                .header("Content-Type", "application/x-www-form-urlencoded")
                                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&scope=ferry"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JsonMapper.builder()
                .build()
                .readTree(response.body())
                .get("access_token")
                .asString();
    }

    @Test
    void aJwtOfTheProviderNamingAnAccountLogsIn() throws Exception {
        String jwt = token("oidc-alice");
        assertThat(jwt.split("\\.")).hasSize(3);
        ApiClient api = new ApiClient(port, jwt);
        JsonNode me = api.get("/v0.10/me").body();
        assertThat(me.get("username").asString()).isEqualTo("oidc-alice");
        assertThat(me.get("authentication").asString()).isEqualTo("OIDC");
        assertThat(me.get("subject").asString()).isEqualTo("oidc-alice");
        assertThat(api.get("/v0.10/task_list").status()).isEqualTo(200);
    }

    @Test
    void aJwtNamingNoAccountOrATamperedOneIs401() throws Exception {
        ApiClient.Answer nobody = new ApiClient(port, token("oidc-nobody")).get("/v0.10/me");
        assertThat(nobody.status()).isEqualTo(401);
        assertThat(nobody.body().get("message").asString()).contains("No enabled Ferry account 'oidc-nobody'");

        String jwt = token("oidc-alice");
        String[] parts = jwt.split("\\.");
        String otherPayload = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("oidc-alice", "oidc-admin")
                        .getBytes(StandardCharsets.UTF_8));
        ApiClient.Answer tampered =
                new ApiClient(port, parts[0] + "." + otherPayload + "." + parts[2]).get("/v0.10/me");
        assertThat(tampered.status()).isEqualTo(401);
        assertThat(tampered.body().get("message").asString()).contains("The JWT was refused");
    }
}
