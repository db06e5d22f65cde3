package org.ferry.it.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka broker (4.4.0, KRaft: broker and controller in one process) as a separate JVM, from
 * the jars {@code integration-tests/kafka-broker/pom.xml} copies (built here on first use with the
 * repository's Maven wrapper), on two free loopback ports. A test can {@link #stop()} it
 * (SIGTERM), {@link #kill()} it (SIGKILL) and {@link #start()} it again on the same log
 * directory and ports. Settings from real-parts-recipes.md: a short broker session timeout (a
 * restart after kill -9 takes seconds, not twelve), one offsets partition, a small log cleaner
 * buffer for a small heap.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final String STARTED = "Kafka Server started";

    private final Path repoRoot;
    private final Path directory;
    private final int brokerPort;
    private final int controllerPort;
    private Process process;
    private int startsSeen;

    private KafkaBroker(Path repoRoot, Path directory) {
        this.repoRoot = repoRoot;
        this.directory = directory;
        this.brokerPort = FreePorts.pick();
        this.controllerPort = FreePorts.pick();
    }

    /**
     * Formats a fresh log directory and starts the broker.
     *
     * @param repoRoot the repository root (finds the wrapper and the broker's pom)
     * @param directory a directory of the test's own
     */
    public static KafkaBroker start(Path repoRoot, Path directory) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        KafkaBroker broker = new KafkaBroker(repoRoot, directory);
        broker.format();
        broker.start();
        return broker;
    }

    private Path libs() throws IOException, InterruptedException {
        Path pom = repoRoot.resolve("integration-tests/kafka-broker/pom.xml");
        Path libs = pom.getParent().resolve("target/libs");
        if (!Files.isDirectory(libs) || !Files.exists(libs.resolve("kafka_2.13-4.4.0.jar"))) {
            Process build = new ProcessBuilder(
                            repoRoot.resolve("mvnw").toString(), "-q", "-B", "-f", pom.toString(), "package")
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("broker-libs.log").toFile())
                    .start();
            if (!build.waitFor(300, TimeUnit.SECONDS) || build.exitValue() != 0) {
                build.destroyForcibly();
                throw new IllegalStateException("cannot fetch the Kafka broker's jars:\n"
                        + Files.readString(directory.resolve("broker-libs.log")));
            }
        }
        return libs;
    }

    private List<String> java(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-Dlog4j2.configurationFile=" + repoRoot.resolve("integration-tests/kafka-broker/log4j2.properties"),
                "-cp",
                libs() + "/*",
                mainClass));
        command.addAll(List.of(args));
        return command;
    }

    private void format() throws IOException, InterruptedException {
        Files.writeString(
                directory.resolve("server.properties"),
                String.join(
                        "\n",
                        "process.roles=broker,controller",
                        "node.id=1",
                        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                        "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                        "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                        "controller.listener.names=CONTROLLER",
                        "inter.broker.listener.name=PLAINTEXT",
                        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                        "log.dirs=" + directory.resolve("data").toAbsolutePath(),
                        "num.partitions=1",
                        "offsets.topic.replication.factor=1",
                        "offsets.topic.num.partitions=1",
                        "transaction.state.log.replication.factor=1",
                        "transaction.state.log.min.isr=1",
                        "share.coordinator.state.topic.replication.factor=1",
                        "share.coordinator.state.topic.min.isr=1",
                        "group.initial.rebalance.delay.ms=0",
                        "broker.session.timeout.ms=2000",
                        "broker.heartbeat.interval.ms=500",
                        "log.cleaner.dedupe.buffer.size=8388608",
                        ""),
                StandardCharsets.UTF_8);
        Process format = new ProcessBuilder(java(
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        "ferry-test-cluster-0001",
                        "-c",
                        directory.resolve("server.properties").toString()))
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("format.log").toFile())
                .start();
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException(
                    "kafka-storage format failed:\n" + Files.readString(directory.resolve("format.log")));
        }
    }

    /** Starts the broker (again) and waits until it serves; at most 120 s. */
    public synchronized void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            return;
        }
        Path log = directory.resolve("broker.log");
        process = new ProcessBuilder(java(
                        "kafka.Kafka", directory.resolve("server.properties").toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        startsSeen++;
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (count(output) >= startsSeen) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("Kafka broker exited:\n" + output);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Kafka broker did not start:\n" + Files.readString(log));
    }

    private static int count(String output) {
        int count = 0;
        for (int at = output.indexOf(STARTED); at >= 0; at = output.indexOf(STARTED, at + 1)) {
            count++;
        }
        return count;
    }

    /** Stops the broker with SIGTERM (a clean shutdown) and waits for it. */
    public synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            process = null;
        }
    }

    /** Kills the broker with SIGKILL and waits for it to end. */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    /** @return {@code 127.0.0.1:PORT} */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
