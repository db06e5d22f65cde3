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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The task page over real HTTP against a transfer between two real Ferry GridFTP servers: a
 * source path skipped for a source error ({@code skip_source_errors}) is listed on the page and in
 * the live stream from its {@code transfer_file} row, with its fault code; the bytes and files
 * that arrived are shown; the stream of an ended task sends the task and closes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskPageTest {

    private static final Path HOME = TestHomes.create("ferry-task-page");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    private Path siteA;
    private Path siteB;
    private TestGridFtp serverA;
    private TestGridFtp serverB;

    @BeforeAll
    void startServers() throws Exception {
        siteA = Files.createDirectories(HOME.resolve("site-a"));
        siteB = Files.createDirectories(HOME.resolve("site-b"));
        serverA = TestGridFtp.serve(siteA);
        serverB = TestGridFtp.serve(siteB);
    }

    @AfterAll
    void stopServers() {
        serverA.close();
        serverB.close();
    }

    private HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .GET()
                .build();
    }

    /** A browser signed in through the sign-in form. */
    private HttpClient signIn(String user, String password) throws Exception {
        HttpClient browser = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        Matcher token = CSRF.matcher(send(browser, get("/signin")).body());
        assertThat(token.find()).isTrue();
        String form = "username=" + user + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8)
                + "&_csrf=" + URLEncoder.encode(token.group(1), StandardCharsets.UTF_8);
        HttpResponse<String> signedIn = send(
                browser,
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/signin"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build());
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/files"));
        return browser;
    }

    @Test
    void theFilesSkippedForASourceErrorAreListedWithTheirFaultOnThePageAndInTheStream() throws Exception {
        ApiClient admin =
                new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        assertThat(admin.post("/v0.10/user", Map.of("username", "erin", "password", "erins-password"))
                        .status())
                .isEqualTo(201);
        ApiClient erin = admin.withPassword("erin", "erins-password");
        for (String[] endpoint : new String[][] {{"erin#a", serverA.url()}, {"erin#b", serverB.url()}}) {
            ApiClient.Answer made =
                    erin.post("/v0.10/endpoint", Map.of("canonical_name", endpoint[0], "url", endpoint[1]));
            assertThat(made.status()).as(String.valueOf(made.body())).isEqualTo(201);
        }
        byte[] content = new byte[70_000];
        new java.util.Random(16).nextBytes(content);
        Files.createDirectories(siteA.resolve("data"));
        Files.write(siteA.resolve("data/here.bin"), content);
        Map<String, Object> transfer = new HashMap<>();
        transfer.put("DATA_TYPE", "transfer");
        transfer.put("source_endpoint", "erin#a");
        transfer.put("destination_endpoint", "erin#b");
        transfer.put("skip_source_errors", true);
        transfer.put("label", "page test");
        transfer.put(
                "DATA",
                List.of(
                        Map.of(
                                "DATA_TYPE",
                                "transfer_item",
                                "source_path",
                                "/data/here.bin",
                                "destination_path",
                                "/copy/here.bin"),
                        Map.of(
                                "DATA_TYPE",
                                "transfer_item",
                                "source_path",
                                "/data/gone.bin",
                                "destination_path",
                                "/copy/gone.bin")));
        ApiClient.Answer accepted = erin.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        JsonNode task = TaskWaits.ended(erin, taskId);
        assertThat(task.get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(Files.readAllBytes(siteB.resolve("copy/here.bin"))).isEqualTo(content);

        HttpClient browser = signIn("erin", "erins-password");
        HttpResponse<String> page = send(browser, get("/tasks/" + taskId));
        assertThat(page.statusCode()).isEqualTo(200);
        String body = page.body();
        assertThat(body).contains("id=\"task-status\"", ">SUCCEEDED<");
        assertThat(body).contains("0 failed, 1 skipped for a source error");
        String table = body.substring(body.indexOf("id=\"faults-body\""));
        table = table.substring(0, table.indexOf("</tbody>"));
        assertThat(table).contains("/data/gone.bin", "SKIPPED", "FILE_NOT_FOUND");
        assertThat(table).doesNotContain("/data/here.bin");
        assertThat(body).contains("id=\"task-bytes\">68.4 KiB<");

        // the ended task's stream: its events, then the task with the list, then the end
        HttpResponse<String> stream = send(
                browser,
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tasks/" + taskId + "/stream"))
                        .header("Accept", "text/event-stream")
                        .GET()
                        .build());
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.body())
                .contains("event:task", "\"status\":\"SUCCEEDED\"", "\"subtasks_skipped_errors\":1")
                .contains("\"problem_files\":[{\"source_path\":\"/data/gone.bin\"")
                .contains("\"fault_code\":\"FILE_NOT_FOUND\"");

        // another user sees neither the page nor the stream
        assertThat(admin.post("/v0.10/user", Map.of("username", "finn", "password", "finns-password"))
                        .status())
                .isEqualTo(201);
        HttpClient other = signIn("finn", "finns-password");
        assertThat(send(other, get("/tasks/" + taskId)).statusCode()).isEqualTo(404);
    }
}
