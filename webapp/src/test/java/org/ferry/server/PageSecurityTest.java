package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The pages' security over real HTTP: sign-in through the form with its CSRF token (a post
 * without one is refused, the API's bearer requests need none), pages and streams only with a
 * session, a disabled account's session ended at its next request, and the clear-text guard:
 * behind a proxy ({@code server.forward-headers-strategy=native}, loopback is a trusted proxy) a
 * client beyond the machine is refused over plain HTTP and served when the proxy says it spoke
 * TLS; health probes pass either way.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PageSecurityTest {

    private static final Path HOME = TestHomes.create("ferry-pages");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("server.forward-headers-strategy", () -> "native");
    }

    @LocalServerPort
    int port;

    private HttpClient browser() {
        return HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    private HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .GET();
    }

    private HttpRequest.Builder postForm(String path, Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&")
                .append(k)
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    }

    private String admin() throws Exception {
        return "Bearer " + Files.readString(HOME.resolve("token")).trim();
    }

    private void createUser(String name, String password) throws Exception {
        HttpResponse<String> created = send(
                HttpClient.newHttpClient(),
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0.10/user"))
                        .header("Authorization", admin())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"username\":\"" + name + "\",\"password\":\"" + password + "\"}")));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    private String csrf(HttpClient client, String path) throws Exception {
        HttpResponse<String> page = send(client, get(path));
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Matcher token = CSRF.matcher(page.body());
        assertThat(token.find()).isTrue();
        return token.group(1);
    }

    @Test
    void signInNeedsTheFormsCsrfTokenAndPagesNeedTheSession() throws Exception {
        createUser("dora", "doras-password");
        HttpClient client = browser();
        HttpResponse<String> page = send(client, get("/files"));
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/signin"));
        assertThat(send(client, get("/tasks/00000000-0000-0000-0000-000000000000/stream"))
                        .statusCode())
                .isEqualTo(302);

        HttpResponse<String> forged =
                send(client, postForm("/signin", Map.of("username", "dora", "password", "doras-password")));
        assertThat(forged.statusCode()).as("no CSRF token").isEqualTo(403);

        String token = csrf(client, "/signin");
        HttpResponse<String> signedIn = send(
                client, postForm("/signin", Map.of("username", "dora", "password", "doras-password", "_csrf", token)));
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/files"));
        assertThat(send(client, get("/endpoints")).body()).contains("Signed in as", "dora");

        HttpResponse<String> noToken = send(client, postForm("/endpoints", Map.of("name", "x", "url", "ftp://h:1")));
        assertThat(noToken.statusCode()).as("a form post without the token").isEqualTo(403);
        String formToken = csrf(client, "/endpoints/new");
        HttpResponse<String> created = send(
                client,
                postForm(
                        "/endpoints",
                        Map.of("name", "lab", "url", "ftp://127.0.0.1:2811", "description", "", "_csrf", formToken)));
        assertThat(created.statusCode()).isEqualTo(302);
        assertThat(send(client, get("/endpoints")).body()).contains("dora#lab");
        HttpResponse<String> invalid =
                send(client, postForm("/endpoints", Map.of("name", "bad", "url", "http://nope", "_csrf", formToken)));
        assertThat(invalid.statusCode()).as("the form again, with the error").isEqualTo(200);
        assertThat(invalid.body()).contains("role=\"alert\"", "aria-invalid=\"true\"");
    }

    @Test
    void aDisabledAccountsSessionEndsAtItsNextRequest() throws Exception {
        createUser("eve", "eves-password");
        HttpClient client = browser();
        String token = csrf(client, "/signin");
        send(client, postForm("/signin", Map.of("username", "eve", "password", "eves-password", "_csrf", token)));
        assertThat(send(client, get("/tasks")).statusCode()).isEqualTo(200);
        HttpResponse<String> disabled = send(
                HttpClient.newHttpClient(),
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0.10/user/eve"))
                        .header("Authorization", admin())
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"disabled\":true}")));
        assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);
        HttpResponse<String> after = send(client, get("/tasks"));
        assertThat(after.statusCode()).isEqualTo(302);
        assertThat(after.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/signin"));
    }

    @Test
    void plainHttpFromBeyondTheMachineIsRefusedUnlessTheProxySpokeTls() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> page = send(client, get("/signin").header("X-Forwarded-For", "203.0.113.9"));
        assertThat(page.statusCode()).isEqualTo(403);
        assertThat(page.body()).contains("only over HTTPS");
        HttpResponse<String> api = send(
                client,
                get("/v0.10/me").header("X-Forwarded-For", "203.0.113.9").header("Authorization", admin()));
        assertThat(api.statusCode()).isEqualTo(403);
        assertThat(api.body()).contains("\"code\":\"ClientError.Forbidden\"", "only over HTTPS");
        assertThat(send(client, get("/actuator/health/readiness").header("X-Forwarded-For", "203.0.113.9"))
                        .statusCode())
                .isEqualTo(200);

        HttpResponse<String> overTls = send(
                client,
                get("/v0.10/me")
                        .header("X-Forwarded-For", "203.0.113.9")
                        .header("X-Forwarded-Proto", "https")
                        .header("Authorization", admin()));
        assertThat(overTls.statusCode()).as(overTls.body()).isEqualTo(200);
        assertThat(send(client, get("/v0.10/me").header("Authorization", admin()))
                        .statusCode())
                .as("loopback itself")
                .isEqualTo(200);
    }
}
