package org.ferry.mover.connect.relay;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.forward.ForwardingFilter;
import org.apache.sshd.server.forward.TcpForwardingFilter;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.session.ServerSession;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.ferry.gsi.ca.SetupKeyException;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.mover.connect.ConnectProtocol;
import org.ferry.mover.connect.SetupKey;

/**
 * The service side of Ferry Connect: an SSH server (Apache MINA SSHD) that agents dial out to and
 * stay connected to, as Globus Connect's GSI-OpenSSH tunnel to the Globus Online relay (seed 000).
 * It pairs agents ({@link ConnectProtocol}: the setup key, a certificate from the online CA for the
 * agent's own key), then, for each agent that proves the key of its current certificate, binds the
 * agent's control port on the forward host and carries every connection there (the movers'
 * GridFTP control channels) through the agent's connection to its server: RFC 4254 section 7
 * remote forwarding. An agent's passive data listeners are forwarded the same way (port 0 on the
 * forward host): the only way into an agent that refuses every inbound connection, which a
 * transfer between two agents takes. Nothing else: no shell, no local forwarding (an agent cannot
 * reach the relay's networks), no agent or X11 forwarding. A second connection of the same agent
 * replaces the first. Events (pairings, connections, refusals) go to a line consumer.
 */
public final class Relay implements AutoCloseable {

    /**
     * @param listenHost the address the SSH server listens on
     * @param port its port, 0 for an ephemeral one
     * @param forwardHost the address agents' forwarded ports are bound on (where movers and other
     *     agents reach them)
     * @param hostKeyFile the relay's SSH host key, made on first start (EC P-256)
     * @param idleTimeout an agent connection silent this long is closed (agents send heartbeats)
     */
    public record Settings(String listenHost, int port, String forwardHost, Path hostKeyFile, Duration idleTimeout) {}

    private static final AttributeKey<String> AGENT_ID = new AttributeKey<>();
    private static final AttributeKey<Integer> CONTROL_PORT = new AttributeKey<>();
    private static final AttributeKey<PublicKey> AGENT_KEY = new AttributeKey<>();
    private static final AttributeKey<String> SETUP_SECRET = new AttributeKey<>();

    private final SshServer sshd;
    private final AgentDirectory directory;
    private final Settings settings;
    private final Consumer<String> events;
    private final PublicKey hostKey;
    private final Map<String, ServerSession> sessions = new ConcurrentHashMap<>();
    private final Map<String, AgentPresence> presence = new ConcurrentHashMap<>();

    private Relay(
            SshServer sshd, AgentDirectory directory, Settings settings, Consumer<String> events, PublicKey hostKey) {
        this.sshd = sshd;
        this.directory = directory;
        this.settings = settings;
        this.events = events;
        this.hostKey = hostKey;
    }

    /**
     * Starts the relay.
     *
     * @param settings where it listens and binds
     * @param directory who the agents are
     * @param events receives one line per event (never a secret)
     * @return the running relay
     * @throws IOException if the host key cannot be made or read, or the port not bound
     */
    public static Relay start(Settings settings, AgentDirectory directory, Consumer<String> events) throws IOException {
        SshServer sshd = SshServer.setUpDefaultServer();
        sshd.setHost(settings.listenHost());
        sshd.setPort(settings.port());
        SimpleGeneratorHostKeyProvider keys = new SimpleGeneratorHostKeyProvider(settings.hostKeyFile());
        keys.setAlgorithm("EC");
        keys.setKeySize(256);
        PublicKey hostKey;
        try {
            List<KeyPair> loaded = keys.loadKeys(null);
            hostKey = loaded.get(0).getPublic();
        } catch (RuntimeException e) {
            throw new IOException("relay host key " + settings.hostKeyFile() + ": " + e.getMessage(), e);
        }
        sshd.setKeyPairProvider(keys);
        CoreModuleProperties.IDLE_TIMEOUT.set(sshd, settings.idleTimeout());
        // larger windows and buffers than the defaults: relayed data between two agents goes
        // through these channels (see docs/connect.md for the figures)
        CoreModuleProperties.WINDOW_SIZE.set(sshd, 8L << 20);
        CoreModuleProperties.FORWARDER_BUFFER_SIZE.set(sshd, 256 * 1024);
        Relay relay = new Relay(sshd, directory, settings, events, hostKey);
        sshd.setPublickeyAuthenticator(relay::authenticateAgent);
        sshd.setPasswordAuthenticator(relay::authenticateSetup);
        sshd.setKeyboardInteractiveAuthenticator(null);
        sshd.setForwardingFilter(relay.forwardingFilter());
        sshd.setCommandFactory(relay::command);
        sshd.addSessionListener(relay.sessionListener());
        sshd.start();
        return relay;
    }

    /** @return the port the SSH server listens on */
    public int port() {
        return sshd.getPort();
    }

    /** @return the relay's host key (what setup keys carry the fingerprint of) */
    public PublicKey hostKey() {
        return hostKey;
    }

    /** @return the settings it runs with */
    public Settings settings() {
        return settings;
    }

    /**
     * @param relayHost the host name agents dial (as they can resolve it)
     * @param secret the online CA's setup key secret
     * @return the setup key a user gives {@code ferry-connect setup}
     */
    public SetupKey setupKey(String relayHost, String secret) {
        return new SetupKey(relayHost, port(), SetupKey.fingerprint(hostKey), secret);
    }

    /**
     * @param agentId an agent's id
     * @return its presence if it is connected
     */
    public Optional<AgentPresence> presence(String agentId) {
        return Optional.ofNullable(presence.get(agentId));
    }

    /** @return the connected agents, by id */
    public List<AgentPresence> agents() {
        List<AgentPresence> all = new ArrayList<>(presence.values());
        all.sort(Comparator.comparing(AgentPresence::agentId));
        return all;
    }

    /**
     * Cuts an agent off at once (its control and data forwards close with its connection).
     *
     * @param agentId the agent's id
     * @return true if it was connected
     */
    public boolean disconnect(String agentId) {
        ServerSession session = sessions.remove(agentId);
        if (session == null) {
            return false;
        }
        presence.remove(agentId);
        session.close(true);
        events.accept("agent " + agentId + " cut off");
        return true;
    }

    /**
     * Asks the directory again about every connected agent and cuts off those it refuses now (a
     * revoked certificate).
     */
    public void recheck() {
        for (Map.Entry<String, ServerSession> e : sessions.entrySet()) {
            PublicKey key = e.getValue().getAttribute(AGENT_KEY);
            try {
                if (key == null || directory.controlPort(e.getKey(), key).isEmpty()) {
                    disconnect(e.getKey());
                }
            } catch (IOException ex) {
                events.accept("cannot check agent " + e.getKey() + ": " + ex.getMessage());
            }
        }
    }

    private boolean authenticateAgent(String username, PublicKey key, ServerSession session) {
        if (ConnectProtocol.SETUP_USER.equals(username)) {
            return false;
        }
        try {
            OptionalInt port = directory.controlPort(username, key);
            if (port.isEmpty()) {
                events.accept("refused agent " + username + " from " + session.getRemoteAddress()
                        + ": not paired, or its certificate was revoked");
                return false;
            }
            session.setAttribute(AGENT_ID, username);
            session.setAttribute(CONTROL_PORT, port.getAsInt());
            session.setAttribute(AGENT_KEY, key);
            return true;
        } catch (IOException e) {
            events.accept("cannot check agent " + username + ": " + e.getMessage());
            return false;
        }
    }

    private boolean authenticateSetup(String username, String password, ServerSession session) {
        if (!ConnectProtocol.SETUP_USER.equals(username) || password == null || !password.matches("[0-9a-f]{32}")) {
            return false;
        }
        session.setAttribute(SETUP_SECRET, password);
        return true;
    }

    private SessionListener sessionListener() {
        return new SessionListener() {
            @Override
            public void sessionEvent(Session session, Event event) {
                String agent = session.getAttribute(AGENT_ID);
                if (event != Event.Authenticated || agent == null) {
                    return;
                }
                ServerSession older = sessions.put(agent, (ServerSession) session);
                if (older != null && older != session) {
                    // one connection per agent: the newer one wins (the older one's network is
                    // probably gone); its forwards close with it, freeing the control port
                    try {
                        older.close(true).await(5, TimeUnit.SECONDS);
                    } catch (IOException e) {
                        // closing anyway; the new session's forward fails and retries if the port is still held
                    }
                    events.accept("agent " + agent + " reconnected; its previous connection closed");
                }
                presence.put(agent, presenceOf(agent, session, "?", List.of()));
            }

            @Override
            public void sessionClosed(Session session) {
                String agent = session.getAttribute(AGENT_ID);
                if (agent != null && sessions.remove(agent, session)) {
                    presence.remove(agent);
                    directory.disconnected(agent);
                    events.accept("agent " + agent + " disconnected");
                }
            }
        };
    }

    private AgentPresence presenceOf(String agent, Session session, String version, List<String> directories) {
        return new AgentPresence(
                agent,
                Instant.now(),
                version,
                directories,
                new InetSocketAddress(settings.forwardHost(), session.getAttribute(CONTROL_PORT)),
                String.valueOf(session.getRemoteAddress()));
    }

    private ForwardingFilter forwardingFilter() {
        return new ForwardingFilter() {
            @Override
            public boolean canForwardAgent(Session session, String requestType) {
                return false;
            }

            @Override
            public boolean canForwardX11(Session session, String requestType) {
                return false;
            }

            @Override
            public boolean canListen(SshdSocketAddress address, Session session) {
                Integer control = session.getAttribute(CONTROL_PORT);
                return control != null
                        && address.getHostName().equals(settings.forwardHost())
                        && (address.getPort() == control || address.getPort() == 0);
            }

            @Override
            public boolean canConnect(TcpForwardingFilter.Type type, SshdSocketAddress address, Session session) {
                return false;
            }
        };
    }

    private Command command(ChannelSession channel, String command) {
        ServerSession session = channel.getServerSession();
        if (command.equals(ConnectProtocol.SETUP_COMMAND) && session.getAttribute(SETUP_SECRET) != null) {
            return new MessageCommand(request -> setup(session, request));
        }
        if (command.equals(ConnectProtocol.HELLO_COMMAND) && session.getAttribute(AGENT_ID) != null) {
            return new MessageCommand(request -> hello(session, request));
        }
        return new MessageCommand(request -> refusal("BAD_REQUEST", "unknown command"));
    }

    private Properties setup(ServerSession session, Properties request) {
        String secret = session.getAttribute(SETUP_SECRET);
        PKCS10CertificationRequest csr;
        try (PEMParser parser = new PEMParser(new InputStreamReader(
                new ByteArrayInputStream(request.getProperty("csr", "").getBytes(StandardCharsets.US_ASCII)),
                StandardCharsets.US_ASCII))) {
            Object read = parser.readObject();
            if (!(read instanceof PKCS10CertificationRequest request1)) {
                return refusal("BAD_REQUEST", "no certificate request");
            }
            csr = request1;
        } catch (IOException e) {
            return refusal("BAD_REQUEST", "unreadable certificate request: " + e.getMessage());
        }
        AgentDirectory.Pairing pairing;
        try {
            pairing = directory.pair(secret, csr);
        } catch (SetupKeyException e) {
            events.accept("refused a setup key from " + session.getRemoteAddress() + ": " + e.reason());
            return refusal(e.reason().name(), e.getMessage());
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            return refusal("BAD_REQUEST", e.getMessage());
        }
        Properties answer = new Properties();
        answer.setProperty(ConnectProtocol.AGENT, pairing.agentId());
        try {
            answer.setProperty(ConnectProtocol.CERTIFICATE, PemFiles.toPem(List.of(pairing.certificate())));
        } catch (IOException e) {
            return refusal("BAD_REQUEST", e.getMessage());
        }
        pairing.trustFiles().forEach((name, text) -> answer.setProperty(ConnectProtocol.TRUST_PREFIX + name, text));
        answer.setProperty(ConnectProtocol.GRIDMAP, String.join("\n", pairing.allowedSubjects()));
        answer.setProperty(ConnectProtocol.FORWARD_HOST, settings.forwardHost());
        answer.setProperty(ConnectProtocol.CONTROL_PORT, Integer.toString(pairing.controlPort()));
        events.accept("paired agent " + pairing.agentId() + " from " + session.getRemoteAddress());
        return answer;
    }

    private Properties hello(ServerSession session, Properties request) {
        String agent = session.getAttribute(AGENT_ID);
        List<String> directories = new ArrayList<>();
        for (int i = 1; request.getProperty(ConnectProtocol.DIRECTORY_PREFIX + i) != null; i++) {
            directories.add(request.getProperty(ConnectProtocol.DIRECTORY_PREFIX + i));
        }
        String version = request.getProperty(ConnectProtocol.VERSION, "?");
        AgentPresence p = presenceOf(agent, session, version, directories);
        if (sessions.get(agent) == session) {
            presence.put(agent, p);
            directory.connected(p);
            events.accept("agent " + agent + " connected: control " + settings.forwardHost() + ":"
                    + p.controlAddress().getPort() + ", version " + version + ", from " + p.remoteAddress());
        }
        Properties answer = new Properties();
        answer.setProperty(ConnectProtocol.FORWARD_HOST, settings.forwardHost());
        answer.setProperty(ConnectProtocol.CONTROL_PORT, Integer.toString(session.getAttribute(CONTROL_PORT)));
        return answer;
    }

    private static Properties refusal(String reason, String message) {
        Properties p = new Properties();
        p.setProperty(ConnectProtocol.ERROR, message == null ? reason : message);
        p.setProperty(ConnectProtocol.REASON, reason);
        return p;
    }

    /** Stops listening and closes every agent connection. */
    @Override
    public void close() throws IOException {
        sshd.stop(true);
    }

    /** An exec channel that reads one message to its end, answers one, and exits 0 (1 for a refusal). */
    private static final class MessageCommand implements Command {
        private final java.util.function.Function<Properties, Properties> handler;
        private InputStream in;
        private OutputStream out;
        private ExitCallback exit;

        MessageCommand(java.util.function.Function<Properties, Properties> handler) {
            this.handler = handler;
        }

        @Override
        public void setInputStream(InputStream value) {
            in = value;
        }

        @Override
        public void setOutputStream(OutputStream value) {
            out = value;
        }

        @Override
        public void setErrorStream(OutputStream value) {}

        @Override
        public void setExitCallback(ExitCallback value) {
            exit = value;
        }

        @Override
        public void start(ChannelSession channel, Environment env) {
            Thread t = new Thread(
                    () -> {
                        int status = 1;
                        try {
                            Properties answer = handler.apply(ConnectProtocol.read(in));
                            ConnectProtocol.write(answer, out);
                            status = answer.getProperty(ConnectProtocol.ERROR) == null ? 0 : 1;
                        } catch (IOException | RuntimeException e) {
                            status = 2;
                        } finally {
                            exit.onExit(status);
                        }
                    },
                    "ferry-relay-exec");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void destroy(ChannelSession channel) {}
    }
}
