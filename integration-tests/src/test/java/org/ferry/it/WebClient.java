package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ferry-server's web pages and REST API over one HTTP client (its cookie jar holds the page
 * session): sign-in through the form with its CSRF token, and JSON requests with a bearer token
 * or a password.
 */
final class WebClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final String baseUrl;

    /**
     * @param http the client (TLS trust, cookie jar, no redirects followed)
     * @param baseUrl the application's root, e.g. {@code https://127.0.0.1:8443/ferry}
     */
    WebClient(HttpClient http, String baseUrl) {
        this.http = http;
        this.baseUrl = baseUrl;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** GETs a path with an {@code Authorization} header and no {@code Accept} preference. */
    HttpResponse<String> get(String path, String authorization) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .header("Authorization", authorization)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Signs in through the page's form.
     *
     * @return the answer to the form post (a redirect: to the file manager, or back with an error)
     */
    HttpResponse<String> signIn(String user, String password) throws IOException, InterruptedException {
        HttpResponse<String> page = get("/signin");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Matcher token = CSRF.matcher(page.body());
        assertThat(token.find()).as("the sign-in form's CSRF token").isTrue();
        String form = "username=" + encode(user) + "&password=" + encode(password) + "&_csrf=" + encode(token.group(1));
        return http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/signin"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** @return the page's body, asserting a 200 */
    String page(String path) throws IOException, InterruptedException {
        HttpResponse<String> page = get(path);
        assertThat(page.statusCode()).as(path + ": " + page.body()).isEqualTo(200);
        return page.body();
    }

    /**
     * Posts a {@code multipart/form-data} page form with the CSRF token of the endpoints page and
     * follows its redirect.
     *
     * @param file the file part's name, file name and text; null for none
     * @param pairs names and values of the text parts in turn
     * @return the page the form redirected to
     */
    String postMultipart(String path, String[] file, String... pairs) throws IOException, InterruptedException {
        Matcher token = CSRF.matcher(page("/endpoints"));
        assertThat(token.find()).as("a CSRF token").isTrue();
        String boundary = "----ferry" + Long.toHexString(System.nanoTime());
        StringBuilder body = new StringBuilder();
        String[] fields = Stream.concat(Stream.of(pairs), Stream.of("_csrf", token.group(1)))
                .toArray(String[]::new);
        for (int i = 0; i < fields.length; i += 2) {
            body.append("--").append(boundary).append("\r\n");
            body.append("Content-Disposition: form-data; name=\"")
                    .append(fields[i])
                    .append("\"\r\n\r\n");
            body.append(fields[i + 1]).append("\r\n");
        }
        if (file != null) {
            body.append("--").append(boundary).append("\r\n");
            body.append("Content-Disposition: form-data; name=\"")
                    .append(file[0])
                    .append("\"; filename=\"")
                    .append(file[1])
                    .append("\"\r\nContent-Type: application/octet-stream\r\n\r\n");
            body.append(file[2]).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(302);
        String location = answer.headers().firstValue("Location").orElseThrow();
        URI target = URI.create(baseUrl + "/").resolve(location);
        return page(
                target.getRawPath().substring(URI.create(baseUrl).getRawPath().length()));
    }

    /** @return {@code Bearer TOKEN} */
    static String bearer(String token) {
        return "Bearer " + token;
    }

    /** @return {@code Basic ...} of a user name and password */
    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a JSON API request and returns the answer's status and body. */
    HttpResponse<String> api(String method, String path, String authorization, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", authorization)
                .header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a JSON API request that must succeed and returns its document. */
    JsonNode apiOk(String method, String path, String authorization, String body)
            throws IOException, InterruptedException {
        HttpResponse<String> answer = api(method, path, authorization, body);
        assertThat(answer.statusCode())
                .as(method + " " + path + ": " + answer.body())
                .isBetween(200, 299);
        return JSON.readTree(answer.body());
    }

    /**
     * Reads a task until it has ended (the API, every 200 ms: the test's own clock, not the
     * server's) and returns its last document.
     */
    JsonNode awaitTaskEnd(String taskId, String authorization, Duration timeout)
            throws IOException, InterruptedException {
        AtomicReference<JsonNode> task = new AtomicReference<>();
        try {
            return Awaitility.await("task " + taskId + " ended")
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> {
                                task.set(apiOk("GET", "/v0.10/task/" + taskId, authorization, null));
                                return task.get();
                            },
                            t -> !List.of("ACTIVE", "INACTIVE")
                                    .contains(t.get("status").asString()));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("task " + taskId + " still running after " + timeout + ": " + task.get());
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
