package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The WAR ({@code webapp/target/ferry.war}) in a real Apache Tomcat 11 from Maven Central, served
 * over TLS by the connector README documents, configured by {@code FERRY_HOME} in the
 * environment and {@code $FERRY_HOME/ferry.properties}: the first start makes the admin and its
 * token, an account signs in through the web form, a transfer submitted through the API between
 * two real ferry-gridftp endpoints succeeds byte for byte, health and readiness answer, and the
 * Prometheus text lists Ferry's metrics.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TomcatWarTest {

    private static final String PASSWORD = "tomcat-user-pw";

    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path rootA;
    private Path rootB;
    private Path home;
    private FerryGridFtpProcess a;
    private FerryGridFtpProcess b;
    private TomcatProcess tomcat;
    private SelfSignedTls tls;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        Launchers launchers = Launchers.fromBuild();
        rootA = Files.createDirectories(work.resolve("a"));
        rootB = Files.createDirectories(work.resolve("b"));
        TestTrees.generate(rootA.resolve("data"), 30, 3L << 20, 7);
        a = started(FerryGridFtpProcess.start(launchers, rootA, work.resolve("a.log")));
        b = started(FerryGridFtpProcess.start(launchers, rootB, work.resolve("b.log")));
        home = Files.createDirectories(work.resolve("ferry-home"));
        // the properties file README documents; the limit is what the test can see from outside
        Files.writeString(
                home.resolve("ferry.properties"), "ferry.api.max-items-per-task=3\nferry.metrics.refresh-seconds=0\n");
        tls = SelfSignedTls.create(work.resolve("tls"));
        Path war = launchers.repoRoot().resolve("webapp/target/ferry.war");
        tomcat = started(
                TomcatProcess.start(work.resolve("catalina-base"), war, tls, Map.of("FERRY_HOME", home.toString())));
    }

    private <T extends AutoCloseable> T started(T process) {
        processes.add(process);
        return process;
    }

    @AfterAll
    void stop() throws Exception {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
    }

    @Test
    void signInAndTransferOnTomcatOverTls() throws Exception {
        WebClient web = new WebClient(tls.client(), tomcat.baseUrl());
        assertThat(web.get("/actuator/health/readiness").body()).contains("\"status\":\"UP\"");
        String admin = WebClient.bearer(Files.readString(home.resolve("token")).trim());
        web.apiOk(
                "POST",
                "/v0.10/user",
                admin,
                "{\"DATA_TYPE\":\"user\",\"username\":\"carol\",\"password\":\"" + PASSWORD + "\"}");

        HttpResponse<String> wrong = new WebClient(tls.client(), tomcat.baseUrl()).signIn("carol", "not-her-password");
        assertThat(wrong.statusCode()).isEqualTo(302);
        assertThat(wrong.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/ferry/signin?error"));
        HttpResponse<String> signedIn = web.signIn("carol", PASSWORD);
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/ferry/files"));
        assertThat(signedIn.headers().allValues("Set-Cookie"))
                .as("the session cookie travels over TLS only")
                .anySatisfy(c -> assertThat(c)
                        .startsWith("JSESSIONID=")
                        .contains("Secure")
                        .contains("HttpOnly"));
        HttpResponse<String> files = web.get("/files");
        assertThat(files.statusCode()).isEqualTo(200);
        assertThat(files.body()).contains("Signed in as", "carol", "/ferry/css/ferry.css");

        String carol = WebClient.basic("carol", PASSWORD);
        for (String[] endpoint : List.of(new String[] {"a", a.url()}, new String[] {"b", b.url()})) {
            web.apiOk(
                    "POST",
                    "/v0.10/endpoint",
                    carol,
                    "{\"DATA_TYPE\":\"endpoint\",\"display_name\":\"" + endpoint[0] + "\",\"url\":\"" + endpoint[1]
                            + "\"}");
        }
        HttpResponse<String> tooMany = web.api("POST", "/v0.10/transfer", carol, transfer(4));
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("\"field\":\"DATA\"", "at most 3 per task");

        String taskId = web.apiOk("POST", "/v0.10/transfer", carol, transfer(1))
                .get("task_id")
                .asString();
        JsonNode task = web.awaitTaskEnd(taskId, carol, Duration.ofMinutes(5));
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(TreeDigest.of(rootB.resolve("copy"))).isEqualTo(TreeDigest.of(rootA.resolve("data")));

        HttpResponse<String> page = web.get("/tasks/" + taskId);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("SUCCEEDED");

        HttpResponse<String> metrics = web.get("/actuator/prometheus", admin);
        assertThat(metrics.statusCode()).isEqualTo(200);
        // counters appear from the first read of the database on, which a scrape may make
        metrics = web.get("/actuator/prometheus", admin);
        assertThat(metrics.body())
                .contains("ferry_tasks{application=\"ferry-server\",status=\"SUCCEEDED\"} 1.0")
                .contains("ferry_web_sessions_active{")
                // the task is over: nothing queued, no chunk out, no fault retried
                .contains("ferry_queue_files{application=\"ferry-server\"} 0.0")
                .contains("ferry_queue_chunks{application=\"ferry-server\"} 0.0")
                .contains("ferry_retries_total{application=\"ferry-server\"} 0.0")
                .containsPattern("ferry_transfer_bytes_total\\{[^}]*destination=\"carol#b\",source=\"carol#a\"} [1-9]")
                .containsPattern("ferry_transfer_files_total\\{[^}]*destination=\"carol#b\",source=\"carol#a\"} [1-9]");
        assertThat(web.get("/actuator/prometheus", carol).statusCode())
                .as("metrics are for admins")
                .isEqualTo(403);
    }

    /** A transfer of {@code /data} to {@code /copy}, recursive, with {@code items} items in all. */
    private static String transfer(int items) {
        StringBuilder data = new StringBuilder(
                "{\"DATA_TYPE\":\"transfer_item\",\"source_path\":\"/data\",\"destination_path\":\"/copy\",\"recursive\":true}");
        for (int i = 1; i < items; i++) {
            data.append(",{\"DATA_TYPE\":\"transfer_item\",\"source_path\":\"/data/x")
                    .append(i)
                    .append("\",\"destination_path\":\"/x")
                    .append(i)
                    .append("\"}");
        }
        return "{\"DATA_TYPE\":\"transfer\",\"source_endpoint\":\"carol#a\",\"destination_endpoint\":\"carol#b\","
                + "\"verify_checksum\":true,\"DATA\":[" + data + "]}";
    }
}
