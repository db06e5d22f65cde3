package org.ferry.mover.connect;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.client.session.ClientSession.ClientSessionEvent;
import org.apache.sshd.common.SshException;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.storage.MountedStorage;

/**
 * A running Ferry Connect agent (Globus Connect, seed 000): Ferry's GridFTP server on loopback
 * serving the shared directories ({@link MountedStorage}) to GSI logins its grid-mapfile allows,
 * and one outbound SSH connection to the relay that carries the movers' control channels to it
 * (the relay's control port is forwarded to the server). Its data channels are dialled out (PORT);
 * a passive listener is reached through the relay ({@link RelayedPassiveCommands}). When the
 * connection drops (network change, relay restart) it dials again after a back-off that doubles up
 * to a cap, with jitter, so that many agents do not come back at once; a relay that refuses the
 * agent's key (revoked) stops it. It holds no transfer state. Events go to a line consumer.
 */
public final class Agent implements RelayPorts, AutoCloseable {

    /** The version agents announce. */
    public static final String VERSION = "ferry-connect 0.1";

    /**
     * @param heartbeat how often the relay connection is checked (gone after three unanswered)
     * @param firstRetry the first back-off after a failure
     * @param maxRetry the back-off's cap
     * @param dataRateLimitBytesPerSecond cap on the server's data rate, 0 for none
     * @param markerInterval period of restart and performance markers while receiving
     */
    public record Options(
            Duration heartbeat,
            Duration firstRetry,
            Duration maxRetry,
            long dataRateLimitBytesPerSecond,
            Duration markerInterval) {
        /** @return heartbeats every 15 s, retries from 1 s to 60 s, no rate limit, markers every 5 s */
        public static Options defaults() {
            return new Options(
                    Duration.ofSeconds(15), Duration.ofSeconds(1), Duration.ofSeconds(60), 0, Duration.ofSeconds(5));
        }
    }

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

    private final AgentHome home;
    private final AgentHome.Config config;
    private final Options options;
    private final Consumer<String> events;
    private final KeyPair keyPair;
    private final GridFtpServer server;
    private final SshClient client;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Map<InetSocketAddress, ClientSession> relayPorts = new ConcurrentHashMap<>();
    private final AtomicLong relayedListeners = new AtomicLong();
    private volatile ClientSession current;
    private volatile String refusal;
    private final Thread loop;

    private Agent(
            AgentHome home,
            AgentHome.Config config,
            Options options,
            Consumer<String> events,
            KeyPair keyPair,
            GridFtpServer server,
            SshClient client,
            FileChannel lockFile,
            FileLock lock) {
        this.home = home;
        this.config = config;
        this.options = options;
        this.events = events;
        this.keyPair = keyPair;
        this.server = server;
        this.client = client;
        this.lockFile = lockFile;
        this.lock = lock;
        this.loop = new Thread(this::connectLoop, "ferry-connect-relay");
        this.loop.setDaemon(true);
    }

    /**
     * Starts the agent: checks its files and directories, starts its server, and starts dialling
     * the relay (this returns before the first connection; watch the events or the status file).
     *
     * @param home the agent's files
     * @param options timing and limits
     * @param events one line per event
     * @return the running agent
     * @throws SetupFailure with a message for the user: not paired, a shared directory missing or
     *     unreadable, damaged files, or another agent running on the same home
     */
    public static Agent start(AgentHome home, Options options, Consumer<String> events) throws SetupFailure {
        AgentHome.Config config;
        try {
            config = home.load();
        } catch (IOException e) {
            throw new SetupFailure(e.getMessage(), e);
        }
        for (MountedStorage.Mount m : config.directories()) {
            String problem = MountedStorage.problem(m);
            if (problem != null) {
                throw new SetupFailure(problem + " (edit " + home.dir().resolve("connect.properties") + ")");
            }
        }
        FileChannel lockFile = null;
        FileLock lock = null;
        GridFtpServer server = null;
        try {
            lockFile = FileChannel.open(home.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = lockFile.tryLock();
            if (lock == null) {
                lockFile.close();
                throw new SetupFailure("an agent already runs for " + home.dir() + " (ferry-connect status)");
            }
            GsiCredential credential = PemFiles.readCredential(home.certificate(), home.key(), null);
            KeyPair keyPair = new KeyPair(credential.certificate().getPublicKey(), credential.privateKey());
            GsiServerSecurity gsi = new GsiServerSecurity(
                    credential,
                    new CanlChainValidator(home.trust()),
                    OpensslTrustDirectory.load(home.trust()),
                    new GridMapAuthorizer(GridMap.load(home.gridMap())));
            MountedStorage storage = new MountedStorage(config.directories());
            GridFtpServerConfig serverConfig = new GridFtpServerConfig(
                    InetAddress.getLoopbackAddress(),
                    0,
                    config.directories().get(0).directory(),
                    false,
                    Authenticator.denyAll(),
                    options.markerInterval(),
                    Duration.ofSeconds(600),
                    options.dataRateLimitBytesPerSecond(),
                    Duration.ZERO,
                    GridFtpServerConfig.DEFAULT_INFLIGHT_CHECKSUMS,
                    0); // no session limit: the relay's movers are the agent's only clients
            Agent[] self = new Agent[1];
            RelayPorts ports = new RelayPorts() {
                @Override
                public InetSocketAddress open(int localPort) throws IOException {
                    return self[0].open(localPort);
                }

                @Override
                public void close(InetSocketAddress relayAddress) {
                    self[0].close(relayAddress);
                }
            };
            server = GridFtpServer.start(
                    serverConfig,
                    gsi,
                    DtpFactory.local(),
                    storage,
                    registry -> registry.with(RelayedPassiveCommands.handlers(ports)));
            SshClient client = RelayClients.start(config.relayFingerprint(), options.heartbeat());
            Agent agent = new Agent(home, config, options, events, keyPair, server, client, lockFile, lock);
            self[0] = agent;
            Files.writeString(home.pid(), Long.toString(ProcessHandle.current().pid()), StandardCharsets.US_ASCII);
            agent.status("connecting", null);
            agent.loop.start();
            return agent;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            try {
                if (lock != null) {
                    lock.release();
                }
                if (lockFile != null) {
                    lockFile.close();
                }
            } catch (IOException ignored) {
                // closing after a failed start
            }
            throw new SetupFailure("cannot start the agent: " + e.getMessage(), e);
        }
    }

    /** @return the loopback port of the agent's GridFTP server */
    public int serverPort() {
        return server.port();
    }

    /**
     * @return how many passive data listeners were reached through the relay so far (a transfer
     *     with a peer that can be dialled needs none)
     */
    public long relayedListeners() {
        return relayedListeners.get();
    }

    /** @return the agent's settings */
    public AgentHome.Config config() {
        return config;
    }

    /**
     * Waits until the agent stops ({@link #close}, or refused by the relay).
     *
     * @return 0 after {@link #close}, 3 if the relay refused the agent
     * @throws InterruptedException if interrupted
     */
    public int await() throws InterruptedException {
        stopped.await();
        return refusal == null ? 0 : 3;
    }

    private void connectLoop() {
        int failures = 0;
        try {
            while (closing.getCount() > 0) {
                String why = session();
                if (refusal != null || closing.getCount() == 0) {
                    break;
                }
                failures = why == null ? 1 : failures + 1;
                long cap = Math.min(
                        options.maxRetry().toMillis(), options.firstRetry().toMillis() << Math.min(20, failures - 1));
                // half the back-off fixed, half random: agents cut off together do not return together
                long delay = cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1);
                String reason = why == null ? "the relay connection ended" : why;
                events.accept(reason + "; dialling again in " + delay + " ms");
                status("disconnected", reason);
                if (closing.await(delay, TimeUnit.MILLISECONDS)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            shutdown();
        }
    }

    /**
     * One connection: dial, authenticate, forward the control port, say hello, and wait until it
     * ends.
     *
     * @return why it could not be made, or null if it was made and has ended
     */
    private String session() {
        String relay = config.relayHost() + ":" + config.relayPort();
        status("connecting", null);
        ClientSession session;
        try {
            session = client.connect(config.agentId(), config.relayHost(), config.relayPort())
                    .verify(CONNECT_TIMEOUT)
                    .getSession();
        } catch (IOException e) {
            return "cannot reach the relay at " + relay + " (" + RelayClients.why(e) + ")";
        }
        // current from here on, so that close() cuts short whatever step this is in (the hello, the
        // wait below); if close() came just before, this sees its count down (each side writes its
        // volatile, then reads the other's)
        current = session;
        if (closing.getCount() == 0) {
            session.close(true);
        }
        try (session) {
            session.addPublicKeyIdentity(keyPair);
            try {
                session.auth().verify(CONNECT_TIMEOUT);
            } catch (SshException e) {
                String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
                if (message.contains("no more authentication methods")) {
                    refusal = "the relay at " + relay + " refused this agent: its certificate was revoked or the"
                            + " endpoint deleted; pair again with ferry-connect setup";
                    events.accept(refusal);
                    status("refused", refusal);
                    return refusal;
                }
                return "the relay at " + relay + " did not let this agent in (" + e.getMessage() + ")";
            }
            SshdSocketAddress control = session.startRemotePortForwarding(
                    new SshdSocketAddress(config.forwardHost(), config.controlPort()),
                    new SshdSocketAddress(InetAddress.getLoopbackAddress().getHostAddress(), server.port()));
            Properties hello = new Properties();
            hello.setProperty(ConnectProtocol.VERSION, VERSION);
            int i = 1;
            for (MountedStorage.Mount m : config.directories()) {
                hello.setProperty(ConnectProtocol.DIRECTORY_PREFIX + i++, AgentHome.formatDirectory(m));
            }
            Properties answer = RelayExchange.exchange(session, ConnectProtocol.HELLO_COMMAND, hello, CONNECT_TIMEOUT);
            if (answer.getProperty(ConnectProtocol.ERROR) != null) {
                return "the relay refused the agent's hello: " + answer.getProperty(ConnectProtocol.ERROR);
            }
            String controlAddress = config.forwardHost() + ":" + control.getPort();
            events.accept("connected to the relay at " + relay + "; control channel at " + controlAddress);
            status("connected", null);
            session.waitFor(EnumSet.of(ClientSessionEvent.CLOSED), 0L);
            return null;
        } catch (IOException e) {
            return "the relay connection to " + relay + " failed (" + RelayClients.why(e) + ")";
        } finally {
            current = null;
            relayPorts.values().removeIf(s -> s == session);
        }
    }

    @Override
    public InetSocketAddress open(int localPort) throws IOException {
        ClientSession session = current;
        if (session == null || !session.isOpen()) {
            throw new IOException("the agent is not connected to its relay");
        }
        SshdSocketAddress bound = session.startRemotePortForwarding(
                new SshdSocketAddress(config.forwardHost(), 0),
                new SshdSocketAddress(InetAddress.getLoopbackAddress().getHostAddress(), localPort));
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(config.forwardHost()), bound.getPort());
        relayPorts.put(address, session);
        relayedListeners.incrementAndGet();
        return address;
    }

    @Override
    public void close(InetSocketAddress relayAddress) {
        ClientSession session = relayPorts.remove(relayAddress);
        if (session != null && session.isOpen()) {
            try {
                session.stopRemotePortForwarding(new SshdSocketAddress(config.forwardHost(), relayAddress.getPort()));
            } catch (IOException e) {
                // the relay closes it with the connection anyway
            }
        }
    }

    private void status(String state, String error) {
        Properties p = new Properties();
        p.setProperty("state", state);
        p.setProperty("since", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        p.setProperty("version", VERSION);
        p.setProperty("agent", config.agentId());
        p.setProperty("relay", config.relayHost() + ":" + config.relayPort());
        p.setProperty("control", config.forwardHost() + ":" + config.controlPort());
        if (error != null) {
            p.setProperty("error", error);
        }
        home.writeStatus(p);
    }

    private void shutdown() {
        ClientSession session = current;
        if (session != null) {
            session.close(true);
        }
        client.stop();
        server.close();
        if (refusal == null) {
            status("stopped", null);
        }
        try {
            Files.deleteIfExists(home.pid());
            lock.release();
            lockFile.close();
        } catch (IOException e) {
            // the lock goes with the process anyway
        }
        stopped.countDown();
    }

    /** Disconnects from the relay and stops the server; waits until done (at most a few seconds). */
    @Override
    public void close() {
        closing.countDown();
        ClientSession session = current;
        if (session != null) {
            session.close(true);
        }
        try {
            stopped.await(GridFtpServer.SHUTDOWN_WAIT_SECONDS * 2L, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
