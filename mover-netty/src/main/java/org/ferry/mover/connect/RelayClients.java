package org.ferry.mover.connect;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.time.Duration;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.core.CoreModuleProperties;
import org.apache.sshd.server.forward.ForwardingFilter;
import org.apache.sshd.server.forward.TcpForwardingFilter;

/** The agent's SSH client (Apache MINA SSHD), which trusts only the relay whose host key it was paired with. */
final class RelayClients {

    private RelayClients() {}

    /**
     * @param fingerprint the relay's host key fingerprint ({@link SetupKey#fingerprint})
     * @param heartbeat how often to check the connection is alive; it is closed after three
     *     heartbeats without an answer
     * @return a started client; the caller stops it
     */
    static SshClient start(byte[] fingerprint, Duration heartbeat) {
        SshClient client = SshClient.setUpDefaultClient();
        // this client's identity and hosts are its own: nothing from the user's ~/.ssh
        client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
        client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        client.setServerKeyVerifier(
                (session, remote, key) -> MessageDigest.isEqual(fingerprint, SetupKey.fingerprint(key)));
        // what the relay forwards may lead to this machine's loopback only (the agent's own server
        // and its passive listeners), nowhere else on the agent's network
        client.setForwardingFilter(new ForwardingFilter() {
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
                return false;
            }

            @Override
            public boolean canConnect(TcpForwardingFilter.Type type, SshdSocketAddress address, Session session) {
                return type == TcpForwardingFilter.Type.Forwarded
                        && SshdSocketAddress.isLoopback(address.getHostName());
            }
        });
        CoreModuleProperties.HEARTBEAT_INTERVAL.set(client, heartbeat);
        CoreModuleProperties.HEARTBEAT_REPLY_WAIT.set(client, heartbeat);
        CoreModuleProperties.HEARTBEAT_NO_REPLY_MAX.set(client, 3);
        CoreModuleProperties.WINDOW_SIZE.set(client, 8L << 20);
        CoreModuleProperties.FORWARDER_BUFFER_SIZE.set(client, 256 * 1024);
        client.start();
        return client;
    }

    /**
     * @param e a failure to connect
     * @return why, in a few words a user understands
     */
    static String why(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof ConnectException) {
                return "connection refused";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof SocketTimeoutException) {
                return "timed out";
            }
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
