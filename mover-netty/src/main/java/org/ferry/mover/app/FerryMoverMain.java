package org.ferry.mover.app;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.queue.ChunkExecutor;
import org.ferry.mover.runner.RetryPolicy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ferry-mover}: a transfer agent that takes chunks from Kafka and moves them between the
 * endpoints' GridFTP servers (third party), reporting results back through Kafka. Holds no state
 * that matters and needs no database: start as many as needed, on any machines that reach Kafka
 * and the endpoints, with the same {@code --group}. Exit codes: 0 after SIGTERM, 1 on a failure,
 * 2 on a usage error.
 */
@Command(
        name = "ferry-mover",
        mixinStandardHelpOptions = true,
        version = "ferry-mover 0.1",
        description = "Ferry transfer agent: moves chunks from the Kafka work queue between GridFTP endpoints.")
public final class FerryMoverMain implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", required = true, description = "Kafka brokers, host:port[,host:port].")
    private String bootstrapServers;

    @Option(
            names = "--group",
            defaultValue = "ferry-movers",
            description = "Consumer group of the movers (default: ${DEFAULT-VALUE}).")
    private String group;

    @Option(
            names = "--topic-prefix",
            defaultValue = "ferry",
            description = "Topics PREFIX.chunks, PREFIX.results, PREFIX.control (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Option(names = "--chunks", defaultValue = "2", description = "Chunks moved at once (default: ${DEFAULT-VALUE}).")
    private int chunks;

    @Option(names = "--name", description = "This mover's name in results (default: host and process id).")
    private String name;

    @Option(
            names = "--max-attempts",
            defaultValue = "2",
            description =
                    "Attempts per file within a chunk before it goes back to the scheduler (default: ${DEFAULT-VALUE}).")
    private int maxAttempts;

    @Option(
            names = "--heartbeat-seconds",
            defaultValue = "2",
            description = "Progress report of each running chunk (default: ${DEFAULT-VALUE}).")
    private double heartbeatSeconds;

    @Option(
            names = "--fence-seconds",
            defaultValue = "10",
            description = "Stop the chunks when Kafka has acknowledged no result for this long; keep it under half"
                    + " the scheduler's ferry.transfer.chunk-timeout (default: ${DEFAULT-VALUE}).")
    private double fenceSeconds;

    @Option(
            names = "--reply-timeout-seconds",
            defaultValue = "120",
            description = "How long to wait for any GridFTP reply (default: ${DEFAULT-VALUE}).")
    private int replyTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        String moverName = name != null
                ? name
                : InetAddress.getLocalHost().getHostName() + ":"
                        + ManagementFactory.getRuntimeMXBean().getPid();
        GridFtpClient client = new GridFtpClient(Duration.ofSeconds(replyTimeoutSeconds));
        ChunkExecutor executor = new ChunkExecutor(
                moverName, client, new RetryPolicy(maxAttempts, List.of(1)), (long) (heartbeatSeconds * 1000));
        KafkaMover mover = new KafkaMover(
                bootstrapServers,
                group,
                KafkaTopics.withPrefix(topicPrefix),
                chunks,
                Duration.ofMillis((long) (fenceSeconds * 1000)),
                executor,
                moverName);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            mover.close();
            executor.close();
            client.close();
        }));
        System.out.println("ferry-mover " + moverName + " started");
        System.out.flush();
        mover.run();
        return 0;
    }

    /** @param args see {@code ferry-mover --help} */
    public static void main(String[] args) {
        System.exit(new CommandLine(new FerryMoverMain()).execute(args));
    }
}
