package org.ferry.mover.client;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannel;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the SSH side of {@code sshftp://} with Apache MINA SSHD: a TCP connection, the server's
 * host key checked against the session's {@link SshftpSecurity} (known_hosts or a pinned key; no
 * unknown key is ever accepted or added), public key or password authentication, then an exec
 * channel running the remote command, whose standard input and output carry the GridFTP control
 * channel. One {@link SshClient} (its own I/O threads) serves every session of a {@link
 * GridFtpClient}; each session's settings travel as its connection context. No ~/.ssh/config is
 * read, no agent or port is forwarded, no terminal is asked for.
 */
final class SshConnector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SshConnector.class);

    private static final AttributeRepository.AttributeKey<SshftpSecurity> SECURITY =
            new AttributeRepository.AttributeKey<>();

    /**
     * Why the host key was refused, set by {@link #verifyServerKey} in the connection context (the
     * session's own attributes are cleared when the failed key exchange closes it).
     */
    private static final AttributeRepository.AttributeKey<AtomicReference<String>> HOST_KEY_REFUSED =
            new AttributeRepository.AttributeKey<>();

    /** Bytes of the remote command's standard error kept for an error message. */
    private static final int STDERR_KEPT_BYTES = 4096;

    private final SshClient client;

    SshConnector() {
        client = SshClient.setUpDefaultClient();
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY); // no ~/.ssh/config
        client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER); // only the session's keys
        client.setServerKeyVerifier(SshConnector::verifyServerKey);
        client.setAgentFactory(new SessionAgents());
        client.start();
    }

    /** An open exec channel carrying a control channel, and its TCP connection's ends. */
    static final class Exec implements Closeable {
        private final ClientSession session;
        private final ChannelExec channel;
        private final ByteArrayOutputStream stderr;

        private Exec(ClientSession session, ChannelExec channel, ByteArrayOutputStream stderr) {
            this.session = session;
            this.channel = channel;
            this.stderr = stderr;
        }

        /** @return the remote command's standard output: the server's replies */
        InputStream fromServer() {
            return channel.getInvertedOut();
        }

        /** @return the remote command's standard input: our commands */
        OutputStream toServer() {
            return channel.getInvertedIn();
        }

        /** @return our end of the SSH connection: the address a server reaches us at (PORT) */
        InetSocketAddress localAddress() {
            return (InetSocketAddress) session.getIoSession().getLocalAddress();
        }

        /** @return the server's end of the SSH connection */
        InetSocketAddress remoteAddress() {
            return (InetSocketAddress) session.getIoSession().getRemoteAddress();
        }

        /** @return the start of what the remote command wrote to its standard error */
        String stderr() {
            synchronized (stderr) {
                return stderr.toString(StandardCharsets.UTF_8).strip();
            }
        }

        @Override
        public void close() {
            channel.close(false);
            session.close(false);
        }
    }

    /**
     * Connects, checks the host key, logs in and starts the remote command.
     *
     * @param host the server's host
     * @param port its SSH port
     * @param user the account to log in as
     * @param password a password to try after the keys, or null
     * @param security trusted host keys, login keys, remote command, timeout
     * @return the running remote command's channel
     * @throws java.nio.file.AccessDeniedException if the host key is unknown or changed, or no key
     *     or password is accepted
     * @throws IOException if the connection or the remote command fails (the message says which,
     *     never a secret)
     */
    Exec open(String host, int port, String user, String password, SshftpSecurity security) throws IOException {
        AtomicReference<String> refused = new AtomicReference<>();
        Map<AttributeRepository.AttributeKey<?>, Object> context =
                Map.of(SECURITY, security, HOST_KEY_REFUSED, refused);
        ClientSession session;
        try {
            session = client.connect(user, host, port, AttributeRepository.ofAttributesMap(context), null)
                    .verify(security.connectTimeout())
                    .getSession();
        } catch (IOException e) {
            throw new IOException("sshftp: cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
        try {
            for (KeyPair key : security.identities()) {
                session.addPublicKeyIdentity(key);
            }
            if (password != null && !password.isEmpty()) {
                session.addPasswordIdentity(password);
            }
            try {
                session.auth().verify(security.connectTimeout());
            } catch (IOException e) {
                // refusals, not faults: a task fails at once (PERMISSION_DENIED) rather than retrying
                if (refused.get() != null) {
                    UntrustedHostKeyException untrusted = new UntrustedHostKeyException(
                            "sshftp: " + host + ":" + port + " is not trusted: " + refused.get());
                    untrusted.initCause(e);
                    throw untrusted;
                }
                throw refusal(
                        "sshftp: " + user + "@" + host + ":" + port + " refused every key offered ("
                                + security.identities().size() + " keys"
                                + (security.agentSocket() != null ? " and the agent's" : "")
                                + (password != null && !password.isEmpty() ? ", a password" : "") + "): "
                                + e.getMessage(),
                        e);
            }
            ChannelExec channel = session.createExecChannel(security.remoteCommand());
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            channel.setErr(new BoundedOutput(stderr, STDERR_KEPT_BYTES));
            channel.setRedirectErrorStream(false);
            channel.setStreaming(ClientChannel.Streaming.Sync);
            channel.open().verify(security.connectTimeout());
            LOG.debug("sshftp: {}@{}:{} runs {}", user, host, port, security.remoteCommand());
            return new Exec(session, channel, stderr);
        } catch (IOException | RuntimeException e) {
            session.close(true);
            throw e instanceof IOException io ? io : new IOException("sshftp: " + e.getMessage(), e);
        }
    }

    /** Checks the host key against the session's settings: known_hosts or the pinned key, nothing else. */
    private static boolean verifyServerKey(ClientSession session, SocketAddress address, PublicKey key) {
        SshftpSecurity security = session.getConnectionContext() == null
                ? null
                : session.getConnectionContext().getAttribute(SECURITY);
        if (security == null) {
            return false;
        }
        boolean accepted;
        if (security.pinnedHostKey() != null) {
            accepted = KeyUtils.compareKeys(security.pinnedHostKey(), key);
        } else {
            KnownHostsServerKeyVerifier knownHosts =
                    new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE, security.knownHostsFile());
            knownHosts.setModifiedServerKeyAcceptor((s, a, entry, expected, actual) -> false);
            accepted = knownHosts.verifyServerKey(session, address, key);
        }
        if (!accepted) {
            String why = "its host key " + KeyUtils.getFingerPrint(key) + " is "
                    + (security.pinnedHostKey() != null
                            ? "not the pinned key " + KeyUtils.getFingerPrint(security.pinnedHostKey())
                            : "not in " + security.knownHostsFile());
            AtomicReference<String> refused = session.getConnectionContext().getAttribute(HOST_KEY_REFUSED);
            if (refused != null) {
                refused.set(why);
            }
            LOG.warn("sshftp: {} {}", address, why);
        }
        return accepted;
    }

    /** @return an access refusal whose message is {@code reason} alone */
    private static AccessDeniedException refusal(String reason, IOException cause) {
        AccessDeniedException refused = new AccessDeniedException(null, null, reason);
        refused.initCause(cause);
        return refused;
    }

    /** The ssh-agent of each session's settings, if any. */
    private static final class SessionAgents implements SshAgentFactory {
        @Override
        public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
            return List.of();
        }

        @Override
        public SshAgent createClient(Session session, FactoryManager manager) throws IOException {
            SshftpSecurity security = session instanceof ClientSession client && client.getConnectionContext() != null
                    ? client.getConnectionContext().getAttribute(SECURITY)
                    : null;
            if (security == null || security.agentSocket() == null) {
                return null;
            }
            return UnixSocketAgent.factory(security.agentSocket()).createClient(session, manager);
        }

        @Override
        public SshAgentServer createServer(ConnectionService service) {
            throw new UnsupportedOperationException("no agent forwarding");
        }
    }

    /** Keeps the first bytes written, drops the rest (a flood of standard error never blocks). */
    private static final class BoundedOutput extends OutputStream {
        private final ByteArrayOutputStream into;
        private final int keep;

        BoundedOutput(ByteArrayOutputStream into, int keep) {
            this.into = into;
            this.keep = keep;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (into) {
                int room = keep - into.size();
                if (room > 0) {
                    into.write(b, off, Math.min(room, len));
                }
            }
        }
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (RuntimeException e) {
            LOG.debug("sshftp: stopping the SSH client: {}", e.toString());
        }
    }
}
