package org.ferry.mover.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.connect.relay.CaAgentDirectory;
import org.ferry.mover.connect.relay.Relay;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.storage.MountedStorage;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent, its relay and a normal server in one JVM on loopback: pairing, the control channel
 * through the tunnel with a GSI login, data dialled out by the agent and relayed into it, a setup
 * key used twice, a revoked agent. The same behaviour across namespaces that refuse inbound
 * connections is in integration-tests (ConnectNamespaceIT).
 */
class ConnectLoopbackTest {
    @TempDir
    static Path tmp;

    static GsiTestPki pki;
    static CaAgentDirectory directory;
    static Relay relay;
    static Agent agent;
    static GridFtpServer plain;
    static GridFtpClient client;
    static GsiClientSecurity mover;
    static final BlockingQueue<String> relayEvents = new LinkedBlockingQueue<>();
    static final BlockingQueue<String> agentEvents = new LinkedBlockingQueue<>();
    static String agentDn;

    @BeforeAll
    static void start() throws Exception {
        pki = GsiTestPki.create(tmp.resolve("pki"), "Connect");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        directory = new CaAgentDirectory(pki.ca(), tmp.resolve("agents"), List.of(pki.dn("ferry-mover")), port, port);
        relay = Relay.start(
                new Relay.Settings("127.0.0.1", 0, "127.0.0.1", tmp.resolve("relay-hostkey"), Duration.ofSeconds(60)),
                directory,
                relayEvents::add);
        CaAgentDirectory.NewAgent created = directory.newAgent(Duration.ofHours(1));
        SetupKey key =
                SetupKey.decode(relay.setupKey("127.0.0.1", created.secret()).encode());
        Path shared = Files.createDirectories(tmp.resolve("laptop/data"));
        Path readOnly = Files.createDirectories(tmp.resolve("laptop/papers"));
        Files.write(shared.resolve("big.bin"), bytes(3_000_000, 1));
        Files.writeString(readOnly.resolve("a.txt"), "paper");
        Files.writeString(Files.createDirectories(shared.resolve("données été")).resolve("naïve café.txt"), "grüße");
        AgentHome home = new AgentHome(tmp.resolve("home"));
        AgentSetup.pair(
                key,
                List.of(
                        new MountedStorage.Mount("data", shared, false),
                        new MountedStorage.Mount("papers", readOnly, true)),
                home);
        assertThatThrownBy(() -> AgentSetup.pair(
                        key,
                        List.of(new MountedStorage.Mount("x", shared, false)),
                        new AgentHome(tmp.resolve("thief"))))
                .isInstanceOf(SetupFailure.class)
                .hasMessageContaining("already been used");
        agent = Agent.start(home, Agent.Options.defaults(), agentEvents::add);
        assertThat(next(agentEvents, "connected")).contains("control channel at 127.0.0.1:" + port);
        agentDn = pki.dn("connect/" + created.agentId());

        Files.createDirectories(tmp.resolve("site"));
        plain = GridFtpServer.start(
                GridFtpServerConfig.loopback(tmp.resolve("site")).withAnonymousAllowed(true));
        client = new GridFtpClient(Duration.ofSeconds(30));
        GsiCredential service = pki.user("ferry-mover");
        mover = new GsiClientSecurity(
                service, pki.validator(), pki.trust(), DelegationMode.LIMITED, Duration.ofHours(1), agentDn);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (agent != null) {
            agent.close();
        }
        if (relay != null) {
            relay.close();
        }
        if (plain != null) {
            plain.close();
        }
        if (pki != null) {
            pki.close();
        }
    }

    static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    static String next(BlockingQueue<String> events, String containing) throws InterruptedException {
        while (true) {
            String e = events.poll(60, TimeUnit.SECONDS);
            assertThat(e).as("an event containing '" + containing + "'").isNotNull();
            if (e.contains(containing)) {
                return e;
            }
        }
    }

    GridFtpSession agentSession() throws Exception {
        return client.open(
                GridFtpUrl.parse("gsiftp://127.0.0.1:" + agent.config().controlPort()), mover);
    }

    GridFtpSession plainSession() throws Exception {
        return client.open(GridFtpUrl.parse("ftp://anonymous:x@127.0.0.1:" + plain.port()));
    }

    @Test
    void listsTheSharedDirectoriesThroughTheTunnel() throws Exception {
        try (GridFtpSession s = agentSession()) {
            assertThat(s.list("/")).extracting(f -> f.name()).contains("data", "papers");
            assertThat(s.list("/papers")).extracting(f -> f.name()).containsExactly("a.txt");
            assertThat(s.list("/data/données été")).extracting(f -> f.name()).containsExactly("naïve café.txt");
            s.makeDirectory("/data/données été/日本語");
        }
    }

    @Test
    void movesFilesBothWaysByteForByte() throws Exception {
        TransferOptions modeE =
                TransferOptions.extendedBlock(4).withDataChannelAuthentication(DataChannelAuthentication.NONE);
        TransferOptions stream = TransferOptions.STREAM.withDataChannelAuthentication(DataChannelAuthentication.NONE);
        try (GridFtpSession a = agentSession();
                GridFtpSession p = plainSession()) {
            a.sendTo("/data/big.bin", p, "/from-agent.bin", modeE, TransferListener.NONE);
            assertThat(Files.readAllBytes(tmp.resolve("site/from-agent.bin")))
                    .isEqualTo(Files.readAllBytes(tmp.resolve("laptop/data/big.bin")));
            long relayed = agent.relayedListeners();
            p.sendTo("/from-agent.bin", a, "/data/back.bin", stream, TransferListener.NONE);
            assertThat(agent.relayedListeners())
                    .as("stream mode into the agent: it dials out")
                    .isEqualTo(relayed);
            assertThat(Files.readAllBytes(tmp.resolve("laptop/data/back.bin")))
                    .isEqualTo(Files.readAllBytes(tmp.resolve("laptop/data/big.bin")));
            p.sendTo("/from-agent.bin", a, "/data/back-e.bin", modeE, TransferListener.NONE);
            assertThat(Files.readAllBytes(tmp.resolve("laptop/data/back-e.bin")))
                    .isEqualTo(Files.readAllBytes(tmp.resolve("laptop/data/big.bin")));
            assertThatThrownBy(() -> p.sendTo("/from-agent.bin", a, "/papers/no.bin", stream, TransferListener.NONE))
                    .isInstanceOf(java.io.IOException.class);
            assertThat(tmp.resolve("laptop/papers/no.bin")).doesNotExist();
        }
    }

    @Test
    void closeStopsAnAgentStillWaitingForItsRelay() throws Exception {
        // a relay that takes the connection and never says a word: the agent waits in its SSH
        // handshake, which may take up to its timeout; close() must end it there, not leave it running
        AgentHome paired = new AgentHome(tmp.resolve("home"));
        AgentHome home = new AgentHome(tmp.resolve("home-silent"));
        Files.createDirectories(home.trust());
        for (Path file : List.of(paired.key(), paired.certificate(), paired.gridMap())) {
            Files.copy(file, home.dir().resolve(file.getFileName()));
        }
        try (var trust = Files.list(paired.trust())) {
            for (Path file : trust.toList()) {
                Files.copy(file, home.trust().resolve(file.getFileName()));
            }
        }
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            AgentHome.Config c = paired.load();
            home.save(new AgentHome.Config(
                    c.agentId(),
                    "127.0.0.1",
                    silent.getLocalPort(),
                    c.relayFingerprint(),
                    c.forwardHost(),
                    c.controlPort(),
                    c.directories()));
            Agent waiting = Agent.start(home, Agent.Options.defaults(), line -> {});
            try (java.net.Socket dialled = silent.accept()) {
                waiting.close();
                // once close() returns the agent is gone: its lock is released (the same home starts
                // again at once) and it says it stopped
                Agent again = Agent.start(home, Agent.Options.defaults(), line -> {});
                again.close();
                assertThat(waiting.await()).isZero();
                assertThat(again.await()).isZero();
            }
        }
    }
}
