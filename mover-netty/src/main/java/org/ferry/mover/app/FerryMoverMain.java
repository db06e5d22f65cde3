package org.ferry.mover.app;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.queue.ChunkExecutor;
import org.ferry.mover.runner.RetryPolicy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

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
            defaultValue = "1",
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

    @Option(
            names = "--credential-key-file",
            defaultValue = "${env:FERRY_CREDENTIAL_KEY_FILE}",
            description = "The installation's credential key (ferry-server's FERRY_HOME/credential-key, or its"
                    + " ferry.credentials.key-file): chunk messages carry endpoint passwords and activated GSI"
                    + " credentials sealed with it. Without it only anonymous ftp:// endpoints work"
                    + " (default: $FERRY_CREDENTIAL_KEY_FILE).")
    private Path credentialKeyFile;

    @Option(
            names = "--ca-dir",
            defaultValue = "${env:X509_CERT_DIR:-/etc/grid-security/certificates}",
            description = "Trust directory for GSI endpoints' certificates (default: ${DEFAULT-VALUE}).")
    private Path caDirectory;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CredentialCipher cipher;
        if (credentialKeyFile != null) {
            if (!Files.isReadable(credentialKeyFile)) {
                throw new ParameterException(
                        spec.commandLine(), "--credential-key-file: cannot read " + credentialKeyFile);
            }
            cipher = CredentialCipher.fromKeyFile(credentialKeyFile);
        } else {
            byte[] none = new byte[CredentialCipher.KEY_BYTES];
            new SecureRandom().nextBytes(none); // opens nothing: sealed secrets fail with a clear message
            cipher = CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(none));
            System.err.println("ferry-mover: no --credential-key-file: endpoints with a password or an activated"
                    + " credential cannot be used by this mover");
        }
        Path trustWork = Files.createTempDirectory("ferry-mover-trust");
        String moverName = name != null
                ? name
                : InetAddress.getLocalHost().getHostName() + ":"
                        + ManagementFactory.getRuntimeMXBean().getPid();
        GridFtpClient client = new GridFtpClient(Duration.ofSeconds(replyTimeoutSeconds));
        TrustCache trust = new TrustCache(caDirectory, trustWork);
        EndpointSessions sessions = new EndpointSessions(client, cipher, trust, Clock.systemUTC());
        // lanes give their sessions back at a chunk's end: the next chunk between the same endpoints logs in no more
        IdleSessionPairs idle = new IdleSessionPairs(sessions, Clock.systemUTC());
        ChunkExecutor executor = new ChunkExecutor(
                moverName, sessions, idle, new RetryPolicy(maxAttempts, List.of(1)), (long) (heartbeatSeconds * 1000));
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
            idle.close();
            client.close();
            trust.close();
            deleteQuietly(trustWork);
        }));
        System.out.println("ferry-mover " + moverName + " started");
        System.out.flush();
        mover.run();
        return 0;
    }

    private static void deleteQuietly(Path directory) {
        try (var paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // a temporary directory: the system cleans it up eventually
        }
    }

    /** @param args see {@code ferry-mover --help} */
    public static void main(String[] args) {
        System.exit(new CommandLine(new FerryMoverMain()).execute(args));
    }
}
