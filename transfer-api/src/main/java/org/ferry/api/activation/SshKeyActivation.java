package org.ferry.api.activation;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ActivationFailedException;
import org.ferry.api.error.ActivationFailedException.Reason;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.UntrustedHostKeyException;
import org.ferry.mover.data.security.ProtectionLevel;
import org.springframework.stereotype.Component;

/**
 * Activation of an {@code sshftp://} endpoint with an SSH key of the user's own (issue 37 item 4):
 * the requirements of type {@value #SSH_KEY} ({@code username}: the user's SSH login on the host;
 * {@code private_key}: OpenSSH or PEM text; {@code passphrase}: only for an encrypted key, used
 * once to decrypt it, never stored nor logged; {@code lifetime_in_hours}). Before the key is kept,
 * one login through the host's sshd with it, trusting only the host key pinned when the endpoint
 * was made: a key the server does not accept, or a server whose host key changed, fails the
 * activation with the reason. What is kept (sealed) is the unencrypted key, until the lifetime
 * ends or the user deactivates.
 */
@Component
public class SshKeyActivation {

    /** The requirement type. */
    public static final String SSH_KEY = "ssh_key";

    static final String USERNAME = "username";
    static final String PRIVATE_KEY = "private_key";
    static final String PASSPHRASE = "passphrase";
    static final String LIFETIME = "lifetime_in_hours";

    /** Lifetime of an activation when none is asked for, as a MyProxy activation's default. */
    static final int DEFAULT_LIFETIME_HOURS = 12;

    /** Longest lifetime, as for MyProxy activations. */
    static final int MAX_LIFETIME_HOURS = 24 * 14;

    /** Longest private key text accepted (an RSA 8192 key in PEM is about 6,400 characters). */
    static final int MAX_KEY_CHARS = 16 * 1024;

    private final EndpointSessions sessions;
    private final EndpointSecrets secrets;
    private final EndpointAccessService accesses;

    /**
     * @param sessions opens the checking session
     * @param secrets seals the key for the check
     * @param accesses the endpoint's server and pinned host key
     */
    public SshKeyActivation(EndpointSessions sessions, EndpointSecrets secrets, EndpointAccessService accesses) {
        this.sessions = sessions;
        this.secrets = secrets;
        this.accesses = accesses;
    }

    /**
     * A key read from a filled-in requirements document.
     *
     * @param login the SSH login
     * @param text the unencrypted private key, OpenSSH or PEM text
     * @param fingerprint its public key's SHA-256 fingerprint ({@code SHA256:...})
     * @param lifetimeHours how long the activation lasts
     */
    record Key(String login, String text, String fingerprint, int lifetimeHours) {
        /** Never shows the key. */
        @Override
        public String toString() {
            return "Key[" + login + " " + fingerprint + "]";
        }
    }

    /**
     * @param endpoint the endpoint
     * @return what activating it with an SSH key takes, the endpoint's login offered as the default
     */
    List<ActivationRequirement> requirements(Endpoint endpoint) {
        String login = endpoint.getUsername();
        return List.of(
                new ActivationRequirement(
                        SSH_KEY,
                        USERNAME,
                        login == null || login.equals("anonymous") ? null : login,
                        true,
                        false,
                        "SSH Login",
                        "Your account on the endpoint's host, as which your tasks read and write."),
                new ActivationRequirement(
                        SSH_KEY,
                        PRIVATE_KEY,
                        null,
                        true,
                        true,
                        "SSH Private Key",
                        "A private key (OpenSSH or PEM text) whose public key is in that account's authorized_keys;"
                                + " kept sealed until the activation expires."),
                new ActivationRequirement(
                        SSH_KEY,
                        PASSPHRASE,
                        null,
                        false,
                        true,
                        "Key Passphrase",
                        "The passphrase of an encrypted private key; used once to decrypt it, never stored."),
                new ActivationRequirement(
                        SSH_KEY,
                        LIFETIME,
                        null,
                        false,
                        false,
                        "Activation Lifetime (hours)",
                        "How long the service may use the key, in hours (default " + DEFAULT_LIFETIME_HOURS
                                + ", at most " + MAX_LIFETIME_HOURS + ")."));
    }

    /**
     * @param endpoint the endpoint
     * @param filled the filled-in requirements
     * @return the key, decrypted
     * @throws InvalidRequestException naming the {@code DATA[i].value} of a missing or malformed
     *     login, key or lifetime
     * @throws ActivationFailedException for an encrypted key without its passphrase, or a
     *     passphrase that does not decrypt it (the message names no part of either)
     */
    Key read(Endpoint endpoint, FilledRequirements filled) {
        String login = filled.get(SSH_KEY, USERNAME);
        if (login == null || login.isBlank()) {
            login = endpoint.getUsername();
        }
        if (login == null || login.isBlank() || login.equals("anonymous")) {
            throw new InvalidRequestException(
                    filled.field(SSH_KEY, USERNAME), "username is required: your SSH login on the endpoint's host");
        }
        login = login.strip();
        if (login.length() > 64 || !login.chars().allMatch(c -> c > ' ' && c < 127 && c != '(' && c != ')')) {
            throw new InvalidRequestException(
                    filled.field(SSH_KEY, USERNAME), "username must be an SSH login: up to 64 printable characters");
        }
        String text = filled.get(SSH_KEY, PRIVATE_KEY);
        String keyField = filled.field(SSH_KEY, PRIVATE_KEY);
        if (text == null || text.isBlank()) {
            throw new InvalidRequestException(keyField, "private_key is required: an SSH private key of yours");
        }
        if (text.length() > MAX_KEY_CHARS) {
            throw new InvalidRequestException(
                    keyField, "private_key is longer than " + MAX_KEY_CHARS + " characters: not one SSH private key");
        }
        String passphrase = filled.get(SSH_KEY, PASSPHRASE);
        boolean[] asked = {false};
        FilePasswordProvider provider = (session, resource, index) -> {
            asked[0] = true;
            return passphrase == null || passphrase.isEmpty() ? null : passphrase;
        };
        List<KeyPair> pairs = new ArrayList<>();
        try (InputStream in = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))) {
            Iterable<KeyPair> loaded =
                    SecurityUtils.loadKeyPairIdentities(null, NamedResource.ofName(PRIVATE_KEY), in, provider);
            if (loaded != null) {
                loaded.forEach(pairs::add);
            }
        } catch (Exception e) {
            // never the key's or the passphrase's text in a message
            if (asked[0] && (passphrase == null || passphrase.isEmpty())) {
                throw new ActivationFailedException(
                        Reason.PASSPHRASE_NEEDED,
                        "The SSH private key is encrypted: give its passphrase (passphrase;"
                                + " ferry endpoint activate ... --ssh-key FILE asks for it)");
            }
            if (asked[0]) {
                throw new ActivationFailedException(
                        Reason.WRONG_PASSPHRASE, "The passphrase does not decrypt the SSH private key");
            }
            throw new InvalidRequestException(keyField, "private_key is not an OpenSSH or PEM private key");
        }
        if (pairs.size() != 1) {
            throw new InvalidRequestException(
                    keyField, "private_key must hold one private key (it holds " + pairs.size() + ")");
        }
        KeyPair pair = pairs.get(0);
        String kept = text.strip() + "\n";
        if (asked[0]) {
            // decrypted once here; the seal protects it from now on, as it does an endpoint's key
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, login, null, out);
            } catch (IOException | GeneralSecurityException e) {
                throw new InvalidRequestException(
                        keyField, "private_key is of a kind Ferry cannot keep (" + KeyUtils.getKeyType(pair) + ")");
            }
            kept = out.toString(StandardCharsets.UTF_8);
        }
        int hours = filled.hours(SSH_KEY, LIFETIME, DEFAULT_LIFETIME_HOURS, MAX_LIFETIME_HOURS);
        return new Key(login, kept, KeyUtils.getFingerPrint(pair.getPublic()), hours);
    }

    /**
     * One login through the endpoint's sshd with the key, trusting only the pinned host key.
     *
     * @param endpoint the endpoint
     * @param key the key
     * @return null if the server accepted the login; a note when it could not be reached
     * @throws ActivationFailedException with the reason when the server refused the key or showed
     *     another host key than the pinned one
     */
    String check(Endpoint endpoint, Key key) {
        String context = "activation-check:" + endpoint.getId();
        EndpointAccess access = new EndpointAccess(
                endpoint.getCanonicalName(),
                accesses.servers(endpoint),
                key.login(),
                secrets.seal(key.text(), context),
                context,
                Map.of());
        try (GridFtpSession session = sessions.open(access, ProtectionLevel.CLEAR)) {
            return null;
        } catch (IOException e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof ConnectException
                        || t instanceof UnknownHostException
                        || t instanceof NoRouteToHostException
                        || t instanceof SocketTimeoutException) {
                    return "the endpoint's server could not be reached to check the key (" + e.getMessage() + ")";
                }
            }
            throw new ActivationFailedException(
                    untrustedHostKey(e) ? Reason.HOST_KEY_CHANGED : Reason.KEY_REFUSED,
                    "The server of endpoint " + endpoint.getCanonicalName() + " refused SSH login " + key.login()
                            + " with key " + key.fingerprint() + ": " + e.getMessage());
        }
    }

    /** @return whether the login failed on the server's host key (another than the pinned one) */
    private static boolean untrustedHostKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UntrustedHostKeyException) {
                return true;
            }
        }
        return false;
    }
}
