package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ferry.api.domain.Role;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST API as globus-sdk sees it: a Python virtualenv with globus-sdk from PyPI (pinned)
 * drives a running ferry-server through the SDK's own methods, paginators and error class
 * ({@code src/test/resources/globus-sdk/drive_ferry.py}): endpoints (create, get, update,
 * search over two pages, server list, delete), ls/mkdir/rename/stat, submission ids, transfer
 * and delete tasks with task_wait, task get/list/update/cancel, events, successful transfers and
 * skipped errors (marker-paged, two rows a page), pause info, and the errors it raises (400
 * naming the field, 401, 404, 409). Endpoints are real ferry-gridftp processes.
 *
 * <p>Needs {@code python3} with {@code venv} and PyPI; without them the test is skipped, except
 * under {@code CI=true} where it fails ({@code .ci/run} installs Debian's python3-venv). The
 * virtualenv is kept in {@code target/globus-sdk-venv} and reused while its globus-sdk is the
 * pinned version.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GlobusSdkTest {

    /** The globus-sdk release the test pins. */
    static final String GLOBUS_SDK = "4.10.0";

    private static final int FILES = 5;

    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path work;
    private Path python;
    private FerryServerProcess server;
    private Map<String, String> environment;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        python = virtualenv();
        Launchers launchers = Launchers.fromBuild();
        Path rootA = Files.createDirectories(work.resolve("a"));
        Path rootB = Files.createDirectories(work.resolve("b"));
        Path rootSlow = Files.createDirectories(work.resolve("slow"));
        Files.createDirectories(rootA.resolve("sdk/tree"));
        for (int i = 0; i < FILES; i++) {
            Files.writeString(rootA.resolve("sdk/tree/f" + i + ".txt"), "file " + i + "\n");
        }
        Files.writeString(rootA.resolve("sdk/file.txt"), "hello ferry\n");
        Files.write(rootSlow.resolve("big.bin"), new byte[8 << 20]);
        FerryGridFtpProcess a = started(FerryGridFtpProcess.start(launchers, rootA, work.resolve("a.log")));
        FerryGridFtpProcess b = started(FerryGridFtpProcess.start(launchers, rootB, work.resolve("b.log")));
        FerryGridFtpProcess slow = started(FerryGridFtpProcess.start(
                launchers, rootSlow, work.resolve("slow.log"), 0, "--data-rate-limit", "64K"));
        Path home = Files.createDirectories(work.resolve("home"));
        server = started(FerryServerProcess.start(
                launchers, home, work.resolve("server.log"), List.of("--ferry.api.marker-page-size=2")));
        String adminToken = Files.readString(home.resolve("token")).trim();
        environment = Map.of(
                "FERRY_API", server.apiUrl(),
                "FERRY_TOKEN", adminToken,
                "FERRY_USER_TOKEN", userToken(adminToken),
                "ENDPOINT_A_URL", a.url(),
                "ENDPOINT_B_URL", b.url(),
                "SLOW_URL", slow.url(),
                "FILES", Integer.toString(FILES));
    }

    /** Another account's token, made over REST with the admin's. */
    private String userToken(String adminToken) throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var create = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.apiUrl() + "/v0.10/user"))
                .header("Authorization", "Bearer " + adminToken)
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"username\":\"sdk-other\",\"password\":\"other-secret\",\"role\":\"" + Role.USER + "\"}"))
                .build();
        assertThat(http.send(create, java.net.http.HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(201);
        String basic =
                java.util.Base64.getEncoder().encodeToString("sdk-other:other-secret".getBytes(StandardCharsets.UTF_8));
        var token = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.apiUrl() + "/v0.10/access_token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        String body = http.send(token, java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
        return tools.jackson.databind.json.JsonMapper.builder()
                .build()
                .readTree(body)
                .get("token")
                .asString();
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
    void globusSdkDrivesFerry() throws Exception {
        Path script = work.resolve("drive_ferry.py");
        try (InputStream in = GlobusSdkTest.class.getResourceAsStream("/globus-sdk/drive_ferry.py")) {
            Files.copy(in, script);
        }
        Process process = run(List.of(python.toString(), script.toString()), environment, work.resolve("sdk.log"));
        boolean finished = process.waitFor(10, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String log = Files.readString(work.resolve("sdk.log"));
        assertThat(finished).as("the script finished in 10 minutes:\n" + log).isTrue();
        assertThat(process.exitValue())
                .as("drive_ferry.py:\n" + log + "\nserver log:\n" + server.output())
                .isZero();
        assertThat(log).contains("globus-sdk " + GLOBUS_SDK).containsPattern("\\d+ passed, 0 failed");
    }

    /**
     * A virtualenv with the pinned globus-sdk: reused when it has it, else made with
     * {@code python3 -m venv} and {@code pip install} from PyPI.
     */
    private static Path virtualenv() throws Exception {
        Path venv = Path.of(
                        System.getProperty("ferry.repo.root", ".."), "integration-tests", "target", "globus-sdk-venv")
                .toAbsolutePath()
                .normalize();
        Path python = venv.resolve("bin/python");
        if (Files.isExecutable(python)
                && succeeds(List.of(
                        python.toString(),
                        "-c",
                        "import globus_sdk, sys; sys.exit(0 if globus_sdk.__version__ == '" + GLOBUS_SDK
                                + "' else 1)"))) {
            return python;
        }
        Path log = Files.createTempFile("globus-sdk-venv", ".log");
        require(
                succeeds(List.of("python3", "-m", "venv", "--clear", venv.toString()), log),
                "python3 with venv (Debian: apt-get install python3-venv)",
                log);
        require(
                succeeds(
                        List.of(
                                python.toString(),
                                "-m",
                                "pip",
                                "install",
                                "--disable-pip-version-check",
                                "--quiet",
                                "globus-sdk==" + GLOBUS_SDK),
                        log),
                "pip install globus-sdk==" + GLOBUS_SDK + " from PyPI",
                log);
        return python;
    }

    private static void require(boolean available, String what, Path log) throws IOException {
        String ci = System.getenv("CI");
        boolean inCi = ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false") && !ci.equals("0");
        if (!available) {
            String message = what + " is not available:\n" + Files.readString(log);
            if (inCi) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
    }

    private static boolean succeeds(List<String> command) throws Exception {
        return succeeds(command, Files.createTempFile("globus-sdk-check", ".log"));
    }

    private static boolean succeeds(List<String> command, Path log) throws Exception {
        try {
            Process process = run(command, Map.of(), log);
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly().waitFor();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException notInstalled) {
            Files.writeString(log, notInstalled.toString());
            return false;
        }
    }

    private static Process run(List<String> command, Map<String, String> env, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(env);
        builder.environment().put("PYTHONUNBUFFERED", "1");
        return builder.start();
    }
}
