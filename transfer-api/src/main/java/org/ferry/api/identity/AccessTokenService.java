package org.ferry.api.identity;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.ferry.api.domain.AccessToken;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.repository.AccessTokenRepository;
import org.ferry.api.repository.UserAccountRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Personal access tokens: 32 random bytes (base64url, 43 characters) given to the caller once;
 * only their SHA-256 hash is stored. A token works until it expires or is revoked, and only
 * while its account is enabled.
 */
@Service
public class AccessTokenService {

    /** Longest description. */
    public static final int MAX_DESCRIPTION_CHARS = 256;

    private final AccessTokenRepository tokens;
    private final UserAccountRepository accounts;
    private final TokenCache verified;
    private final SecureRandom random = new SecureRandom();
    // session tokens (hash -> account id): held in memory only, for the CLI run of one SSH command
    private final Map<String, UUID> sessions = new ConcurrentHashMap<>();

    /**
     * @param tokens the token store
     * @param accounts the account store
     * @param verified the tokens verified lately
     */
    public AccessTokenService(AccessTokenRepository tokens, UserAccountRepository accounts, TokenCache verified) {
        this.tokens = tokens;
        this.accounts = accounts;
        this.verified = verified;
    }

    /**
     * A token just made: the secret (shown once) and its row.
     *
     * @param token the bearer token
     * @param row the stored row (no secret)
     */
    public record Issued(String token, AccessToken row) {}

    /**
     * Makes a token for the caller's account.
     *
     * @param caller the account's caller
     * @param description what it is for, or null
     * @param expires when it stops working, or null for never
     * @return the token and its row
     * @throws InvalidRequestException naming {@code description} or {@code expires_time}
     */
    @Transactional
    public Issued create(Caller caller, String description, Instant expires) {
        if (description != null && description.length() > MAX_DESCRIPTION_CHARS) {
            throw new InvalidRequestException(
                    "description", "description must be at most " + MAX_DESCRIPTION_CHARS + " characters");
        }
        if (expires != null && !expires.isAfter(Instant.now())) {
            throw new InvalidRequestException("expires_time", "expires_time must be in the future");
        }
        String token = TokenHasher.newToken(random);
        AccessToken row =
                tokens.save(new AccessToken(caller.accountId(), TokenHasher.hash(token), description, expires));
        return new Issued(token, row);
    }

    /**
     * @param caller the caller
     * @return the caller's tokens, newest first
     */
    @Transactional(readOnly = true)
    public List<AccessToken> list(Caller caller) {
        return tokens.findByAccountIdOrderByCreatedTimeDesc(caller.accountId());
    }

    /**
     * Revokes a token of the caller's (an admin: anyone's).
     *
     * @param caller the caller
     * @param tokenId the token's id
     * @throws NotFoundException naming {@code token_id} if absent or another user's
     */
    @Transactional
    public void revoke(Caller caller, String tokenId) {
        AccessToken token;
        try {
            token = tokens.findById(UUID.fromString(tokenId))
                    .filter(t -> caller.admin() || t.getAccountId().equals(caller.accountId()))
                    .orElse(null);
        } catch (IllegalArgumentException e) {
            token = null;
        }
        if (token == null) {
            throw new NotFoundException("token_id", "No access token '" + tokenId + "' of yours");
        }
        tokens.delete(token);
        verified.forgetToken(token.getTokenHash());
    }

    /**
     * A token that lives in this process's memory only, until closed: what the {@code ferry}
     * commands run over ferry-server's SSH port send to the server's own API for the signed-in
     * account. Never stored, never listed; it stops working when closed or when the server stops.
     *
     * @param token the bearer token
     * @param revoke revokes it
     */
    public record SessionToken(String token, Runnable revoke) implements AutoCloseable {
        /** Revokes the token. */
        @Override
        public void close() {
            revoke.run();
        }
    }

    /**
     * Makes a session token for an account (see {@link SessionToken}).
     *
     * @param caller the account's caller
     * @return the token; close it when the session ends
     */
    public SessionToken openSession(Caller caller) {
        String token = TokenHasher.newToken(random);
        String hash = TokenHasher.hash(token);
        sessions.put(hash, caller.accountId());
        return new SessionToken(token, () -> {
            sessions.remove(hash);
            verified.forgetToken(hash);
        });
    }

    /**
     * Checks a bearer token: a check made in the last seconds is reused ({@link TokenCache}); the
     * token's last-used time is written at most once a minute.
     *
     * @param token a bearer token as sent
     * @return its enabled account's caller, or empty if unknown, expired, revoked or disabled
     */
    public Optional<Caller> authenticate(String token) {
        String hash = TokenHasher.hash(token);
        Instant now = Instant.now();
        Optional<TokenCache.Verified> found = verified.get(hash, h -> check(h, now));
        if (found.isEmpty()
                || (found.get().expires() != null && !now.isBefore(found.get().expires()))) {
            return Optional.empty();
        }
        TokenCache.Verified entry = found.get();
        if (entry.tokenId() != null && entry.touched().isBefore(now.minus(1, ChronoUnit.MINUTES))) {
            tokens.touch(entry.tokenId(), now, now.minus(1, ChronoUnit.MINUTES));
            verified.touched(hash, new TokenCache.Verified(entry.caller(), entry.tokenId(), entry.expires(), now));
        }
        return Optional.of(entry.caller());
    }

    private Optional<TokenCache.Verified> check(String hash, Instant now) {
        UUID sessionAccount = sessions.get(hash);
        if (sessionAccount != null) {
            return accounts.findById(sessionAccount)
                    .filter(a -> !a.isDisabled())
                    .map(a -> new TokenCache.Verified(AccountService.caller(a), null, null, null));
        }
        Optional<AccessToken> row = tokens.findByTokenHash(hash);
        if (row.isEmpty() || row.get().isExpired(now)) {
            return Optional.empty();
        }
        Optional<UserAccount> account =
                accounts.findById(row.get().getAccountId()).filter(a -> !a.isDisabled());
        if (account.isPresent()) {
            tokens.touch(row.get().getId(), now, now.minus(1, ChronoUnit.MINUTES));
        }
        return account.map(a -> new TokenCache.Verified(
                AccountService.caller(a), row.get().getId(), row.get().getExpiresTime(), now));
    }
}
