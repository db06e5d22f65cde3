package org.ferry.mover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.net.ftp.FTPClient;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The striped server as separate processes, as deployed: four {@code ferry-gridftp data-node}
 * JVMs and two {@code ferry-gridftp --data-node ...} head JVMs on loopback, then a striped
 * third-party transfer driven by Ferry's client and, when installed, by
 * {@code globus-url-copy -stripe}; the heads' {@code SITE STRIPES} shows both data nodes carried data.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StripedProcessesTest {

    private static final Pattern LISTENING = Pattern.compile("listening at ([0-9.]+):(\\d+)");
    private static final Path GLOBUS_URL_COPY = Path.of("/usr/bin/globus-url-copy");

    @TempDir
    Path tmp;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (Process process : processes) {
            process.destroy();
        }
        for (Process process : processes) {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** Starts {@code ferry-gridftp args...} in a new JVM and returns the port it announced. */
    private int ferry(String name, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                FerryGridFtpMain.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        processes.add(process);
        Path log = tmp.resolve(name + ".log");
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader lines = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = lines.readLine()) != null) {
                            Files.writeString(
                                    log,
                                    line + "\n",
                                    StandardCharsets.UTF_8,
                                    java.nio.file.StandardOpenOption.CREATE,
                                    java.nio.file.StandardOpenOption.APPEND);
                            Matcher m = LISTENING.matcher(line);
                            if (m.find()) {
                                port.complete(Integer.parseInt(m.group(2)));
                            }
                        }
                    } catch (IOException e) {
                        port.completeExceptionally(e);
                    }
                    port.completeExceptionally(new IOException(name + " exited before listening; see " + log));
                },
                "output-" + name);
        reader.setDaemon(true);
        reader.start();
        return port.get(90, TimeUnit.SECONDS);
    }

    @Test
    void twoHeadsOfTwoDataNodesEachMoveA64MiBFileStriped() throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret"), "process-test-secret-" + System.nanoTime() + "\n");
        Path src = Files.createDirectory(tmp.resolve("src"));
        Path dst = Files.createDirectory(tmp.resolve("dst"));
        byte[] data = new byte[64 << 20];
        new Random(11).nextBytes(data);
        Files.write(src.resolve("big.bin"), data);
        List<Integer> nodes = new ArrayList<>();
        for (Path root : List.of(src, src, dst, dst)) {
            nodes.add(ferry(
                    "node" + nodes.size(),
                    "data-node",
                    "--port",
                    "0",
                    "--root",
                    root.toString(),
                    "--secret-file",
                    secret.toString()));
        }
        int source = ferry(
                "head-src",
                "--port",
                "0",
                "--root",
                src.toString(),
                "--anonymous",
                "--data-node",
                "127.0.0.1:" + nodes.get(0),
                "--data-node",
                "127.0.0.1:" + nodes.get(1),
                "--data-node-secret",
                secret.toString());
        int destination = ferry(
                "head-dst",
                "--port",
                "0",
                "--root",
                dst.toString(),
                "--anonymous",
                "--data-node",
                "127.0.0.1:" + nodes.get(2),
                "--data-node",
                "127.0.0.1:" + nodes.get(3),
                "--data-node-secret",
                secret.toString());

        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession s = client.open(GridFtpUrl.parse("ftp://anonymous:x@127.0.0.1:" + source + "/"));
                GridFtpSession d = client.open(GridFtpUrl.parse("ftp://anonymous:x@127.0.0.1:" + destination + "/"))) {
            s.sendStriped("/big.bin", d, "/ferry.bin", 2, 256 * 1024, TransferListener.NONE);
        }
        assertThat(sha256(dst.resolve("ferry.bin"))).isEqualTo(sha256(src.resolve("big.bin")));
        assertThat(stripes(source))
                .contains(
                        " 0 127.0.0.1:" + nodes.get(0) + " bytes=33554432",
                        " 1 127.0.0.1:" + nodes.get(1) + " bytes=33554432");
        assertThat(stripes(destination))
                .contains(
                        " 0 127.0.0.1:" + nodes.get(2) + " bytes=33554432",
                        " 1 127.0.0.1:" + nodes.get(3) + " bytes=33554432");

        if (Files.isExecutable(GLOBUS_URL_COPY)) {
            Process guc = new ProcessBuilder(
                            GLOBUS_URL_COPY.toString(),
                            "-stripe",
                            "-p",
                            "2",
                            "ftp://127.0.0.1:" + source + "/big.bin",
                            "ftp://127.0.0.1:" + destination + "/guc.bin")
                    .redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("guc.log").toFile())
                    .start();
            assertThat(guc.waitFor(180, TimeUnit.SECONDS)).isTrue();
            assertThat(guc.exitValue())
                    .as(Files.readString(tmp.resolve("guc.log")))
                    .isZero();
            assertThat(sha256(dst.resolve("guc.bin"))).isEqualTo(sha256(src.resolve("big.bin")));
            // the second 64 MiB went through the data nodes too, half each
            assertThat(stripes(source)).contains(" bytes=67108864").doesNotContain("bytes=33554432");
            assertThat(stripes(destination)).contains(" bytes=67108864").doesNotContain("bytes=33554432");
        }
    }

    private static byte[] sha256(Path file) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    }

    private static String stripes(int port) throws IOException {
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", port);
        try {
            ftp.login("anonymous", "x");
            ftp.sendCommand("SITE STRIPES");
            return ftp.getReplyString();
        } finally {
            ftp.disconnect();
        }
    }
}
