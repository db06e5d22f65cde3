package org.ferry.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;

/**
 * The training run behind {@code bin/ferry}'s class data sharing archive (JDK 17 AppCDS, JEP 350):
 * the build runs this class with {@code -XX:ArchiveClassesAtExit=target/ferry-cli.jsa} on the
 * shaded jar, and {@code bin/ferry} starts with {@code -XX:SharedArchiveFile} pointing at it, so
 * each command finds picocli's command tree, Jackson and the JDK's HTTP client already parsed and
 * verified instead of loading them from the jar (a command against a server starts in 0.70 s
 * instead of 0.87 s on a 2-core VM). The run answers a few commands from a throwaway HTTP server on loopback that
 * returns one fixed JSON document; nothing outside a temporary directory is touched.
 */
public final class ArchiveTraining {

    private static final String ANSWER = "{\"DATA_TYPE\":\"identity\",\"username\":\"training\",\"id\":\"0\","
            + "\"task_id\":\"00000000-0000-0000-0000-000000000000\",\"status\":\"SUCCEEDED\",\"DATA\":[]}";

    private ArchiveTraining() {}

    /**
     * Runs the training commands; exits normally whatever they answer (the answers are not checked,
     * only the classes they load matter).
     *
     * @param args ignored
     * @throws IOException if the loopback server cannot start or the temporary directory cannot be made
     */
    public static void main(String[] args) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                body.readAllBytes();
            }
            byte[] answer = ANSWER.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
        Path home = Files.createTempDirectory("ferry-cli-training");
        try {
            CliEnvironment environment = new CliEnvironment(
                    Map.of(
                            "FERRY_API",
                            "http://127.0.0.1:" + server.getAddress().getPort(),
                            "FERRY_HOME",
                            home.toString(),
                            "FERRY_TOKEN",
                            "training"),
                    home,
                    InputStream.nullInputStream(),
                    false);
            String[][] commands = {
                {"--help"},
                {"whoami"},
                {"-F", "json", "whoami"},
                {"-F", "unix", "transfer", "a#b:/x", "c#d:/y", "-r", "--no-verify-checksum"},
                {"-F", "unix", "status", "00000000-0000-0000-0000-000000000000"},
            };
            for (String[] command : commands) {
                FerryCli.run(environment, new ByteArrayOutputStream(), new ByteArrayOutputStream(), command);
            }
        } finally {
            server.stop(0);
            try (var files = Files.walk(home)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
