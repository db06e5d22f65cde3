package org.ferry.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A started server's output: copied to its log line by line, and read for the port it listens on. */
final class ProcessOutput {

    private ProcessOutput() {}

    /**
     * Starts a daemon thread that copies {@code process}'s output to {@code log} (flushed per line)
     * until the process closes it.
     *
     * @param process started with its error stream merged into its output
     * @param name the program, for the thread's name and the error
     * @param log the log file (created, or truncated)
     * @param ready a pattern whose first group is the port, e.g. {@code Server listening at [^:\s]+:(\d+)}
     * @return completes with the first group of the first line that matches {@code ready};
     *     exceptionally with an {@link IOException} once the output ends without such a line
     */
    static CompletableFuture<Integer> followForPort(Process process, String name, Path log, Pattern ready) {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                            var sink = Files.newBufferedWriter(log)) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            Matcher m = ready.matcher(line);
                            if (m.find()) {
                                port.complete(Integer.parseInt(m.group(1)));
                            }
                            sink.write(line);
                            sink.newLine();
                            sink.flush();
                        }
                    } catch (IOException e) {
                        port.completeExceptionally(e);
                    }
                    port.completeExceptionally(new IOException(name + " exited; see " + log));
                },
                "bench-output-" + name);
        reader.setDaemon(true);
        reader.start();
        return port;
    }
}
