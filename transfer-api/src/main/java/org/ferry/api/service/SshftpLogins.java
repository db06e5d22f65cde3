package org.ferry.api.service;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Duration;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.mover.client.SshHostKeys;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The login of an {@code sshftp://} endpoint, checked when it is given (issue 37): the private key
 * the service logs in with (parsed, never logged) and the server's host key, pinned at creation
 * (given by the owner, or the one the server shows then).
 */
final class SshftpLogins {

    /** How long reading a host key at creation may take. */
    static final Duration HOST_KEY_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Longest private key text: sealed (AES-GCM, base64) it must fit the 4096 characters a sealed
     * secret has; an unencrypted RSA 3072 key in OpenSSH form is ~2,600.
     */
    static final int MAX_PRIVATE_KEY_CHARS = 2800;

    private SshftpLogins() {}

    /**
     * @param text the private key as sent
     * @return the text to seal
     * @throws InvalidRequestException naming {@code ssh_private_key} if it is missing, encrypted or
     *     not a private key
     */
    static String privateKey(String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidRequestException(
                    "ssh_private_key", "An sshftp:// endpoint needs ssh_private_key: the key the service logs in with");
        }
        if (text.length() > MAX_PRIVATE_KEY_CHARS) {
            throw new InvalidRequestException(
                    "ssh_private_key",
                    "ssh_private_key is longer than " + MAX_PRIVATE_KEY_CHARS
                            + " characters (an RSA key over 3072 bits?): use an Ed25519 or ECDSA key");
        }
        int keys = 0;
        try (InputStream in = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))) {
            Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(
                    null, NamedResource.ofName("ssh_private_key"), in, FilePasswordProvider.EMPTY);
            if (pairs != null) {
                for (KeyPair ignored : pairs) {
                    keys++;
                }
            }
        } catch (Exception e) {
            // the message names no part of the key
            throw new InvalidRequestException(
                    "ssh_private_key",
                    "ssh_private_key is not an unencrypted OpenSSH or PEM private key (an encrypted one: decrypt it"
                            + " with ssh-keygen -p; Ferry stores it sealed)");
        }
        if (keys == 0) {
            throw new InvalidRequestException("ssh_private_key", "ssh_private_key holds no private key");
        }
        return text.strip() + "\n";
    }

    /**
     * @param given the host key the owner sent, or null
     * @param host the server's host
     * @param port its SSH port
     * @return the key to pin, as an OpenSSH public key line without comment
     * @throws InvalidRequestException naming {@code ssh_host_key} if the given one is no key, or
     *     {@code url} if none was given and the server shows none
     * @throws IllegalStateException if it would read the server's key inside a transaction
     */
    static String hostKey(String given, String host, int port) {
        if (given != null && !given.isBlank()) {
            try {
                PublicKey key = PublicKeyEntry.parsePublicKeyEntry(given.strip())
                        .resolvePublicKey(null, null, PublicKeyEntryResolver.FAILING);
                return PublicKeyEntry.toString(key);
            } catch (Exception e) {
                throw new InvalidRequestException(
                        "ssh_host_key", "ssh_host_key is not an OpenSSH public key line (ssh-ed25519 AAAA...)");
            }
        }
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            // a network round trip of up to HOST_KEY_TIMEOUT must not hold a transaction open
            throw new IllegalStateException("a host key is read over the network inside a transaction");
        }
        try {
            return PublicKeyEntry.toString(SshHostKeys.fetch(host, port, HOST_KEY_TIMEOUT));
        } catch (IOException e) {
            throw new InvalidRequestException(
                    "url", "cannot read the host key of " + host + ":" + port + " to pin it: " + e.getMessage());
        }
    }
}
