package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The endpoints page tells a {@code gsiftp://} endpoint the caller has not activated from a
 * clear-text one that needs no activation, and activates through a MyProxy form: a MyProxy server
 * that cannot be reached gives a clear message on the page and leaves the endpoint not activated
 * (the successful MyProxy activation through the same service is ServiceGsiInteropTest's, against
 * a real myproxy-server). Real HTTP, the form sign-in with its CSRF token.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EndpointActivationPageTest {

    private static final Path HOME = TestHomes.create("ferry-activation-page");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void aGsiEndpointIsActivatedFromThePageAndAFailedActivationSaysWhy() throws Exception {
        HttpClient admin = HttpClient.newHttpClient();
        HttpResponse<String> created = admin.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0.10/user"))
                        .header(
                                "Authorization",
                                "Bearer "
                                        + Files.readString(HOME.resolve("token"))
                                                .trim())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"username\":\"erin\",\"password\":\"erins-password\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

        HttpClient browser = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpResponse<String> signedIn = send(
                browser,
                post("/signin", form("username", "erin", "password", "erins-password", "_csrf", csrf(browser))));
        assertThat(signedIn.statusCode()).isEqualTo(302);

        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        for (String[] endpoint : new String[][] {
            {"grid", "gsiftp://127.0.0.1:" + nothingListens}, {"plain", "ftp://127.0.0.1:" + nothingListens}
        }) {
            HttpResponse<String> made = send(
                    browser, post("/endpoints", form("name", endpoint[0], "url", endpoint[1], "_csrf", csrf(browser))));
            assertThat(made.statusCode()).as(made.body()).isEqualTo(302);
        }

        String page = send(browser, get("/endpoints")).body();
        assertThat(row(page, "erin#grid")).contains("Not activated", "Activate with MyProxy");
        assertThat(row(page, "erin#plain")).contains("no activation needed").doesNotContain("MyProxy");

        Matcher id = Pattern.compile("/endpoints/([0-9a-f-]{36})/activate").matcher(row(page, "erin#grid"));
        assertThat(id.find()).isTrue();
        HttpResponse<String> refused = send(
                browser,
                post(
                        "/endpoints/" + id.group(1) + "/activate",
                        form(
                                "username",
                                "erin",
                                "passphrase",
                                "not-stored",
                                "hostname",
                                "127.0.0.1:" + nothingListens,
                                "_csrf",
                                csrf(browser))));
        assertThat(refused.statusCode()).isEqualTo(302);
        String after = send(browser, get("/endpoints")).body();
        assertThat(after).contains("erin#grid was not activated");
        assertThat(row(after, "erin#grid")).contains("Not activated");
        assertThat(after).doesNotContain("not-stored");
    }

    /** The table row of one endpoint. */
    private static String row(String page, String name) {
        int at = page.indexOf("data-endpoint=\"" + name + "\"");
        assertThat(at).as(name + " listed").isNotNegative();
        return page.substring(at, page.indexOf("</tr>", at));
    }

    private String csrf(HttpClient browser) throws Exception {
        HttpResponse<String> page = send(browser, get("/signin"));
        Matcher token = CSRF.matcher(page.body());
        if (!token.find()) {
            page = send(browser, get("/endpoints"));
            token = CSRF.matcher(page.body());
            assertThat(token.find()).as(page.body()).isTrue();
        }
        return token.group(1);
    }

    private static Map<String, String> form(String... pairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put(pairs[i], pairs[i + 1]);
        }
        return fields;
    }

    private HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .GET();
    }

    private HttpRequest.Builder post(String path, Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&")
                .append(k)
                .append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    }
}
