package org.ferry.mover.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * How Ferry's client reaches the remote side of {@code sshftp://} (the control channel through an
 * SSH exec channel, as globus-url-copy's {@code gridftp-ssh} runs {@code ssh host
 * ~/.globus/sshftp}): which host keys it trusts, which keys it logs in with, and the remote
 * command. The server's host key must be in the {@code known_hosts} file or equal the pinned key;
 * an unknown or changed key ends the connection before anything is sent. Keys come from files
 * (an encrypted one with its passphrase, which is held only for decoding and never logged), from
 * key pairs in memory (a service's sealed credential), or from the running ssh-agent
 * ({@code SSH_AUTH_SOCK}). Immutable.
 */
public final class SshftpSecurity {

    /**
     * What globus-url-copy's {@code gridftp-ssh} runs on the remote host: the user's own
     * {@code ~/.globus/sshftp}, else the host's {@code /etc/grid-security/sshftp}, else a 500
     * reply.
     */
    public static final String DEFAULT_REMOTE_COMMAND = "( test -f .globus/sshftp && .globus/sshftp ) ||"
            + " ( test -f /etc/grid-security/sshftp && /etc/grid-security/sshftp ) ||"
            + " printf '500 Server is not configured for SSHFTP connections.\\r\\n'";

    private final Path knownHosts;
    private final PublicKey pinnedHostKey;
    private final List<KeyPair> identities;
    private final Path agentSocket;
    private final String remoteCommand;
    private final Duration connectTimeout;

    private SshftpSecurity(
            Path knownHosts,
            PublicKey pinnedHostKey,
            List<KeyPair> identities,
            Path agentSocket,
            String remoteCommand,
            Duration connectTimeout) {
        this.knownHosts = knownHosts;
        this.pinnedHostKey = pinnedHostKey;
        this.identities = List.copyOf(identities);
        this.agentSocket = agentSocket;
        this.remoteCommand = Objects.requireNonNull(remoteCommand, "remoteCommand");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
    }

    /**
     * Host keys from {@code knownHosts} (OpenSSH format, {@code [host]:port} entries included), no
     * key yet, no agent, the default remote command, a 30-second connect and login timeout.
     *
     * @param knownHosts an OpenSSH known_hosts file
     * @return the settings
     */
    public static SshftpSecurity knownHosts(Path knownHosts) {
        return new SshftpSecurity(
                Objects.requireNonNull(knownHosts, "knownHosts"),
                null,
                List.of(),
                null,
                DEFAULT_REMOTE_COMMAND,
                Duration.ofSeconds(30));
    }

    /**
     * Trusts exactly one host key (pinned when an endpoint was created), nothing else.
     *
     * @param hostKey the server's public host key
     * @return the settings, without keys yet
     */
    public static SshftpSecurity pinned(PublicKey hostKey) {
        return new SshftpSecurity(
                null,
                Objects.requireNonNull(hostKey, "hostKey"),
                List.of(),
                null,
                DEFAULT_REMOTE_COMMAND,
                Duration.ofSeconds(30));
    }

    /**
     * What the {@code ssh} command would use for the calling user: {@code ~/.ssh/known_hosts}, the
     * agent of {@code SSH_AUTH_SOCK} if set, and whichever of {@code ~/.ssh/id_ed25519},
     * {@code id_ecdsa}, {@code id_rsa} exist unencrypted (encrypted ones belong in the agent).
     *
     * @return the settings
     */
    public static SshftpSecurity userDefaults() {
        Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
        SshftpSecurity security = knownHosts(ssh.resolve("known_hosts"));
        String agent = System.getenv("SSH_AUTH_SOCK");
        if (agent != null && !agent.isEmpty()) {
            security = security.withAgent(Path.of(agent));
        }
        for (String name : List.of("id_ed25519", "id_ecdsa", "id_rsa")) {
            Path key = ssh.resolve(name);
            if (Files.isReadable(key)) {
                try {
                    security = security.withKeyFile(key, null);
                } catch (IOException | GeneralSecurityException e) {
                    // encrypted or unreadable: the agent may hold it
                }
            }
        }
        return security;
    }

    /**
     * @param keyFile a private key file (OpenSSH or PEM)
     * @param passphrase its passphrase, or null for an unencrypted key; used only to decode it
     * @return these settings with the file's keys added
     * @throws IOException if the file cannot be read
     * @throws GeneralSecurityException if it is no key, or the passphrase is wrong or missing (the
     *     message names the file, never the passphrase)
     */
    public SshftpSecurity withKeyFile(Path keyFile, char[] passphrase) throws IOException, GeneralSecurityException {
        FilePasswordProvider password =
                passphrase == null ? FilePasswordProvider.EMPTY : FilePasswordProvider.of(new String(passphrase));
        byte[] bytes = Files.readAllBytes(keyFile);
        List<KeyPair> loaded = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            Iterable<KeyPair> pairs =
                    SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(keyFile.toString()), in, password);
            if (pairs != null) {
                pairs.forEach(loaded::add);
            }
        } catch (IOException e) {
            // a wrong passphrase shows as a corrupt key; the message names the file, never the passphrase
            throw new GeneralSecurityException("cannot decode the private key in " + keyFile
                    + (passphrase == null ? " (encrypted? give its passphrase)" : " (wrong passphrase?)"));
        }
        if (loaded.isEmpty()) {
            throw new GeneralSecurityException("no private key in " + keyFile);
        }
        return withKeys(loaded);
    }

    /**
     * @param keys key pairs to log in with (e.g. decrypted from a service's sealed credential)
     * @return these settings with the keys added
     */
    public SshftpSecurity withKeys(List<KeyPair> keys) {
        List<KeyPair> all = new ArrayList<>(identities);
        all.addAll(keys);
        return new SshftpSecurity(knownHosts, pinnedHostKey, all, agentSocket, remoteCommand, connectTimeout);
    }

    /**
     * @param socket the ssh-agent's Unix socket ({@code SSH_AUTH_SOCK})
     * @return these settings with the agent's keys offered too
     */
    public SshftpSecurity withAgent(Path socket) {
        return new SshftpSecurity(knownHosts, pinnedHostKey, identities, socket, remoteCommand, connectTimeout);
    }

    /**
     * @param command what to run on the remote host instead of the default chain, e.g.
     *     {@code /opt/ferry/bin/ferry-gridftp --ssh} (globus-url-copy takes it from
     *     {@code GLOBUS_REMOTE_SSHFTP})
     * @return these settings with that command
     */
    public SshftpSecurity withRemoteCommand(String command) {
        return new SshftpSecurity(knownHosts, pinnedHostKey, identities, agentSocket, command, connectTimeout);
    }

    /**
     * @param timeout connect, key exchange and login, each
     * @return these settings with that timeout
     */
    public SshftpSecurity withConnectTimeout(Duration timeout) {
        return new SshftpSecurity(knownHosts, pinnedHostKey, identities, agentSocket, remoteCommand, timeout);
    }

    /** @return the known_hosts file, or null when a key is pinned */
    public Path knownHostsFile() {
        return knownHosts;
    }

    /** @return the pinned host key, or null when known_hosts decides */
    public PublicKey pinnedHostKey() {
        return pinnedHostKey;
    }

    /** @return the key pairs to log in with */
    public List<KeyPair> identities() {
        return identities;
    }

    /** @return the agent's socket, or null */
    public Path agentSocket() {
        return agentSocket;
    }

    /** @return the remote command */
    public String remoteCommand() {
        return remoteCommand;
    }

    /** @return the connect and login timeout */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** @return what these settings trust and offer, fingerprints only (no key material, no passphrase) */
    @Override
    public String toString() {
        return "SshftpSecurity["
                + (pinnedHostKey != null
                        ? "pinned " + KeyUtils.getFingerPrint(pinnedHostKey)
                        : "known_hosts " + knownHosts)
                + ", " + identities.size() + " keys" + (agentSocket != null ? ", agent" : "") + "]";
    }
}
