package org.ferry.server.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.forward.RejectAllForwardingFilter;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.session.ServerSession;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.Caller;
import org.ferry.api.identity.SshKeyService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The command line over SSH (issue 37, as Globus Online's {@code ssh cli.globusonline.org}, seed
 * 000): an SSH server (Apache MINA SSHD) inside ferry-server on which a user whose public key is
 * registered to their account ({@code ferry ssh-key add}) runs the {@code ferry} commands:
 * {@code ssh -p 2222 alice@ferry.example.org transfer site#a:/d site#b:/d -r}. Each command runs
 * the CLI's own Picocli commands ({@link FerryCommand}) against this server's REST API, so output
 * formats and exit codes are the CLI's. Public key authentication only (RFC 4252 section 7); no
 * shell ({@link NoShell}), no port, agent or X11 forwarding, no subsystems (no SFTP), no file of
 * the server read or written.
 *
 * <p>Off unless {@code ferry.ssh.port} is set (0 picks a free port). {@code ferry.ssh.address}
 * (default 127.0.0.1) is where it listens; {@code ferry.ssh.host-key-file} (default
 * {@code $FERRY_HOME/ssh_host_key}, EC P-256, made on first start) its host key;
 * {@code ferry.ssh.api-url} the API the commands call (default: this server's own HTTP port on
 * loopback; a WAR deployment sets it).
 */
@Component
@ConditionalOnExpression("'${ferry.ssh.port:}' != ''")
public class SshCommandLine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SshCommandLine.class);
    private static final AttributeKey<Caller> CALLER = new AttributeKey<>();

    private final SshKeyService keys;
    private final AccessTokenService tokens;
    private final Environment environment;
    private final int configuredPort;
    private final String address;
    private final Path hostKeyFile;
    private final String configuredApiUrl;
    private final ExecutorService executor;
    private SshServer sshd;
    private PublicKey hostKey;

    /**
     * @param keys the accounts' SSH keys
     * @param tokens makes the session tokens commands run with
     * @param environment where the HTTP port is found
     * @param port {@code ferry.ssh.port}
     * @param address {@code ferry.ssh.address}
     * @param hostKeyFile {@code ferry.ssh.host-key-file}
     * @param apiUrl {@code ferry.ssh.api-url}, or empty for this server's own HTTP port
     */
    public SshCommandLine(
            SshKeyService keys,
            AccessTokenService tokens,
            Environment environment,
            @Value("${ferry.ssh.port}") int port,
            @Value("${ferry.ssh.address:127.0.0.1}") String address,
            @Value("${ferry.ssh.host-key-file:${ferry.home}/ssh_host_key}") Path hostKeyFile,
            @Value("${ferry.ssh.api-url:}") String apiUrl) {
        this.keys = keys;
        this.tokens = tokens;
        this.environment = environment;
        this.configuredPort = port;
        this.address = address;
        this.hostKeyFile = hostKeyFile;
        this.configuredApiUrl = apiUrl;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ferry-ssh-command-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts listening once the web server is up (its port is what the commands call).
     *
     * @throws UncheckedIOException when the host key cannot be made or read, or the port not bound
     * @throws IllegalStateException when no API URL is set and this server has no HTTP port
     */
    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (sshd != null) {
            return;
        }
        String apiUrl = apiUrl();
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost(address);
        server.setPort(configuredPort);
        SimpleGeneratorHostKeyProvider hostKeys = new SimpleGeneratorHostKeyProvider(hostKeyFile);
        hostKeys.setAlgorithm("EC");
        hostKeys.setKeySize(256);
        List<KeyPair> loaded = hostKeys.loadKeys(null);
        hostKey = loaded.get(0).getPublic();
        server.setKeyPairProvider(hostKeys);
        server.setPublickeyAuthenticator(this::authenticate);
        server.setPasswordAuthenticator(null);
        server.setKeyboardInteractiveAuthenticator(null);
        server.setGSSAuthenticator(null);
        server.setHostBasedAuthenticator(null);
        server.setForwardingFilter(RejectAllForwardingFilter.INSTANCE);
        server.setSubsystemFactories(List.of());
        server.setAgentFactory(null);
        server.setCommandFactory((channel, command) ->
                new FerryCommand(command, channel.getServerSession().getAttribute(CALLER), tokens, apiUrl, executor));
        server.setShellFactory(channel -> new NoShell(
                "ssh -p " + port() + " " + user(channel.getServerSession()) + "@" + address + " ls ENDPOINT:/path"));
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("ferry.ssh.port " + configuredPort + ": " + e.getMessage(), e);
        }
        sshd = server;
        LOG.info(
                "Command line over SSH on {}:{} (host key {}), commands call {}",
                address,
                server.getPort(),
                KeyUtils.getFingerPrint(hostKey),
                apiUrl);
    }

    /** @return the port it listens on */
    public int port() {
        return sshd.getPort();
    }

    /** @return its host key (what users pin in known_hosts) */
    public PublicKey hostKey() {
        return hostKey;
    }

    /** Stops listening and cuts every session. */
    @Override
    public synchronized void close() throws IOException {
        if (sshd != null) {
            sshd.stop(true);
            sshd = null;
        }
        executor.shutdownNow();
    }

    private boolean authenticate(String username, PublicKey key, ServerSession session) {
        Caller caller = keys.authenticate(username, key).orElse(null);
        if (caller == null) {
            LOG.info(
                    "SSH sign-in refused: user '{}' key {} from {}",
                    username,
                    KeyUtils.getFingerPrint(key),
                    session.getClientAddress());
            return false;
        }
        session.setAttribute(CALLER, caller);
        return true;
    }

    private static String user(ServerSession session) {
        Caller caller = session.getAttribute(CALLER);
        return caller == null ? "USER" : caller.name();
    }

    private String apiUrl() {
        if (!configuredApiUrl.isBlank()) {
            return configuredApiUrl.strip();
        }
        String port = environment.getProperty("local.server.port");
        if (port == null) {
            throw new IllegalStateException(
                    "ferry.ssh.port is set but this server has no HTTP port of its own: set ferry.ssh.api-url");
        }
        String host = environment.getProperty("server.address", "127.0.0.1");
        if (host.isBlank() || host.equals("0.0.0.0") || host.equals("::")) {
            host = "127.0.0.1";
        }
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        String context = environment.getProperty("server.servlet.context-path", "");
        return "http://" + host + ":" + port + context;
    }
}
