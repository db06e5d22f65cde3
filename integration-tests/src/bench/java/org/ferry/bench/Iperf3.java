package org.ferry.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** iperf3 on loopback: the memory-to-memory limit of this machine, measured in the same run. */
final class Iperf3 {

    private static final Pattern RECEIVED =
            Pattern.compile("\"sum_received\"\\s*:\\s*\\{[^}]*?\"bits_per_second\"\\s*:\\s*([0-9.eE+]+)");

    private Iperf3() {}

    /**
     * Runs an iperf3 server and one client sending {@code bytes} with {@code streams} parallel streams.
     *
     * @param logDirectory where the server's output goes
     * @return the receiver's throughput in Gbit/s
     */
    static double gigabitsPerSecond(long bytes, int streams, Path logDirectory)
            throws IOException, InterruptedException {
        int port = FerryServer.freePort();
        Path log = logDirectory.resolve("iperf3-server.log");
        Process server = new ProcessBuilder("iperf3", "-s", "-B", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            // wait for its banner rather than probing the port, which iperf3 would count as a test
            for (int i = 0;
                    i < 100 && !Files.readString(log, StandardCharsets.UTF_8).contains("listening");
                    i++) {
                Thread.sleep(50);
            }
            List<String> client = new ArrayList<>(List.of(
                    "iperf3", "-c", "127.0.0.1", "-p", Integer.toString(port), "-n", Long.toString(bytes), "-J"));
            if (streams > 1) {
                client.addAll(List.of("-P", Integer.toString(streams)));
            }
            String json = Command.check(client, 600).output();
            Matcher matcher = RECEIVED.matcher(json);
            if (!matcher.find()) {
                throw new IllegalStateException("no sum_received in iperf3 output:\n" + json);
            }
            return Double.parseDouble(matcher.group(1)) / 1e9;
        } finally {
            server.destroy();
            server.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
