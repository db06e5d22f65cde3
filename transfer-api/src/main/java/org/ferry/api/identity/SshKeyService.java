package org.ferry.api.identity;

import java.security.PublicKey;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.ferry.api.domain.SshKey;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.repository.SshKeyRepository;
import org.ferry.api.repository.UserAccountRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * SSH public keys of accounts (issue 37): the keys that sign in to ferry-server's SSH port, where
 * the {@code ferry} commands run as the key's account. A key is given as one OpenSSH
 * {@code authorized_keys} line ({@code ssh-ed25519 AAAA... comment}, as in {@code ~/.ssh/id_ed25519.pub});
 * Apache MINA SSHD parses it, so every key type that SSH server accepts is accepted here.
 */
@Service
public class SshKeyService {

    /** Longest description. */
    public static final int MAX_DESCRIPTION_CHARS = 256;

    /** Longest key line (an RSA 16384-bit key is ~2.8 KB in base64). */
    public static final int MAX_KEY_CHARS = 16_384;

    /** How an OpenSSH private key's base64 body starts ({@code openssh-key-v1\0}, PROTOCOL.key). */
    private static final String OPENSSH_PRIVATE_BODY = "b3BlbnNzaC1rZXktdjE";

    private final SshKeyRepository keys;
    private final UserAccountRepository accounts;

    /**
     * @param keys the key store
     * @param accounts the account store
     */
    public SshKeyService(SshKeyRepository keys, UserAccountRepository accounts) {
        this.keys = keys;
        this.accounts = accounts;
    }

    /**
     * Registers a public key to the caller's account.
     *
     * @param caller the account's caller
     * @param publicKey one authorized_keys line (options before the type are refused)
     * @param description what it is for, or null for the key's comment
     * @return the stored key
     * @throws InvalidRequestException naming {@code public_key} (missing, a private key, not one
     *     key, not parseable; a private key's text is never repeated) or {@code description} (too long)
     * @throws ConflictException naming {@code public_key} if the account has it already
     */
    @Transactional
    public SshKey add(Caller caller, String publicKey, String description) {
        if (publicKey == null || publicKey.isBlank()) {
            throw new InvalidRequestException("public_key", "public_key is required: one line of an OpenSSH .pub file");
        }
        if (isPrivateKey(publicKey)) {
            // said without its text: the message goes on to pages, terminals and logs
            throw new InvalidRequestException(
                    "public_key",
                    "public_key is a private key, not a public one: nothing was stored. Paste the one line"
                            + " of the .pub file instead (e.g. ~/.ssh/id_ed25519.pub, 'ssh-ed25519 AAAA... comment');"
                            + " if the private key went anywhere others can read, make a new key pair");
        }
        String line = publicKey.strip();
        if (line.length() > MAX_KEY_CHARS || line.contains("\n") || line.contains("\r")) {
            throw new InvalidRequestException(
                    "public_key", "public_key must be one line of at most " + MAX_KEY_CHARS + " characters");
        }
        PublicKey key;
        String comment;
        try {
            AuthorizedKeyEntry entry = AuthorizedKeyEntry.parseAuthorizedKeyEntry(line);
            if (entry == null) {
                throw new IllegalArgumentException("no key");
            }
            if (entry.getLoginOptions() != null && !entry.getLoginOptions().isEmpty()) {
                throw new InvalidRequestException(
                        "public_key", "public_key must not carry authorized_keys options (command=, from=, ...)");
            }
            key = entry.resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
            comment = entry.getComment();
        } catch (InvalidRequestException e) {
            throw e;
        } catch (Exception e) {
            throw new InvalidRequestException(
                    "public_key",
                    "public_key is not an OpenSSH public key (expected e.g. 'ssh-ed25519 AAAA... comment'): "
                            + e.getMessage());
        }
        if (key == null) {
            throw new InvalidRequestException("public_key", "public_key has an unsupported key type");
        }
        String text = description != null ? description.strip() : comment == null ? null : comment.strip();
        if (text != null && text.isEmpty()) {
            text = null;
        }
        if (text != null && text.length() > MAX_DESCRIPTION_CHARS) {
            throw new InvalidRequestException(
                    "description", "description must be at most " + MAX_DESCRIPTION_CHARS + " characters");
        }
        String fingerprint = KeyUtils.getFingerPrint(key);
        if (keys.findByAccountIdAndFingerprint(caller.accountId(), fingerprint).isPresent()) {
            throw new ConflictException("public_key", "This key (" + fingerprint + ") is registered already");
        }
        return keys.save(new SshKey(caller.accountId(), fingerprint, PublicKeyEntry.toString(key), text));
    }

    /**
     * @param text what was given as a public key
     * @return whether it is (part of) a private key: PEM or OpenSSH ({@code -----BEGIN ... PRIVATE
     *     KEY-----}), an OpenSSH key's body without its armour (base64 of {@code openssh-key-v1}),
     *     or PuTTY's {@code .ppk}
     */
    static boolean isPrivateKey(String text) {
        return text.contains("PRIVATE KEY")
                || text.contains(OPENSSH_PRIVATE_BODY)
                || text.contains("PuTTY-User-Key-File")
                || text.contains("Private-Lines:");
    }

    /**
     * @param caller the caller
     * @return the caller's keys, oldest first
     */
    @Transactional(readOnly = true)
    public List<SshKey> list(Caller caller) {
        return keys.findByAccountIdOrderByCreatedTime(caller.accountId());
    }

    /**
     * Removes a key of the caller's (an admin: anyone's). Sessions it opened run on until they end.
     *
     * @param caller the caller
     * @param keyId the key's id, or its {@code SHA256:...} fingerprint
     * @throws NotFoundException naming {@code ssh_key_id} if absent or another user's
     */
    @Transactional
    public void remove(Caller caller, String keyId) {
        Optional<SshKey> key;
        if (keyId != null && keyId.startsWith("SHA256:")) {
            key = keys.findByAccountIdAndFingerprint(caller.accountId(), keyId);
        } else {
            try {
                key = keys.findById(UUID.fromString(keyId))
                        .filter(k -> caller.admin() || k.getAccountId().equals(caller.accountId()));
            } catch (IllegalArgumentException | NullPointerException e) {
                key = Optional.empty();
            }
        }
        keys.delete(key.orElseThrow(() -> new NotFoundException("ssh_key_id", "No SSH key '" + keyId + "' of yours")));
    }

    /**
     * Checks a key offered at SSH sign-in (RFC 4252 section 7).
     *
     * @param username the user name the client asked for
     * @param offered the public key the client proves it holds
     * @return the enabled account's caller, or empty if the name is unknown, the account disabled,
     *     or the key not registered to it
     */
    @Transactional
    public Optional<Caller> authenticate(String username, PublicKey offered) {
        Optional<UserAccount> account = accounts.findByName(username).filter(a -> !a.isDisabled());
        if (account.isEmpty()) {
            return Optional.empty();
        }
        String fingerprint = KeyUtils.getFingerPrint(offered);
        Optional<SshKey> key = keys.findByAccountIdAndFingerprint(account.get().getId(), fingerprint)
                .filter(k -> matches(k, offered));
        if (key.isEmpty()) {
            return Optional.empty();
        }
        Instant now = Instant.now();
        keys.touch(key.get().getId(), now, now.minus(1, ChronoUnit.MINUTES));
        return Optional.of(AccountService.caller(account.get()));
    }

    private static boolean matches(SshKey stored, PublicKey offered) {
        try {
            PublicKey key = PublicKeyEntry.parsePublicKeyEntry(stored.getPublicKey())
                    .resolvePublicKey(null, null, PublicKeyEntryResolver.FAILING);
            return KeyUtils.compareKeys(key, offered);
        } catch (Exception e) {
            return false;
        }
    }
}
