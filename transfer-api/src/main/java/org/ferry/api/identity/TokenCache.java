package org.ferry.api.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The bearer tokens this server verified lately (by their SHA-256 hash, never the token), so that
 * a client polling several times a second costs no query per request: an entry lives at most
 * {@code ferry.security.token-cache-ttl} (default 5 s) after its check, at most {@value #MAX_ENTRIES}
 * entries. Revoking a token or changing its account (disabled, role) forgets the entries on this
 * server at once, after the change commits; another server on the same database sees it within the
 * time to live. Unknown tokens are never cached. Thread-safe (Caffeine).
 */
@Component
public class TokenCache {

    static final int MAX_ENTRIES = 10_000;

    /**
     * A verified token.
     *
     * @param caller its enabled account's caller
     * @param tokenId the stored token's id, or null for a session token
     * @param expires when the token stops working, or null for never
     * @param touched when its last-used time was last written (null for a session token)
     */
    public record Verified(Caller caller, UUID tokenId, Instant expires, Instant touched) {}

    private final Cache<String, Optional<Verified>> verified;
    // bumped by every forget: a check that overlapped one is not kept (it may have read the old rows)
    private final AtomicLong forgets = new AtomicLong();

    /** @param ttl how long a check holds */
    public TokenCache(@Value("${ferry.security.token-cache-ttl:5s}") Duration ttl) {
        this.verified = Caffeine.newBuilder()
                .expireAfterWrite(ttl)
                .maximumSize(MAX_ENTRIES)
                .build();
    }

    /**
     * The cached check of a token, or a new one. A check that overlapped a revocation or an account
     * change is used once and not kept, so a stale check never stays.
     *
     * @param hash the token's hash
     * @param check verifies the token against the stores (empty: refused, not cached)
     * @return the verified token, or empty
     */
    Optional<Verified> get(String hash, Function<String, Optional<Verified>> check) {
        long before = forgets.get();
        Optional<Verified> found = verified.get(hash, check);
        // refusals are not kept (the token may be made a moment later), nor checks that overlapped a forget
        if (found.isEmpty() || forgets.get() != before) {
            verified.invalidate(hash);
        }
        return found;
    }

    /**
     * Records that a token's last-used time was written.
     *
     * @param hash the token's hash
     * @param entry its entry with the new time
     */
    void touched(String hash, Verified entry) {
        verified.asMap().computeIfPresent(hash, (h, old) -> Optional.of(entry));
    }

    /**
     * Forgets a token once the current transaction commits (at once outside one).
     *
     * @param hash the token's hash
     */
    public void forgetToken(String hash) {
        afterCommit(() -> {
            forgets.incrementAndGet();
            verified.invalidate(hash);
        });
    }

    /**
     * Forgets every token of an account once the current transaction commits (at once outside
     * one): its account was disabled or its role changed.
     *
     * @param accountId the account
     */
    public void forgetAccount(UUID accountId) {
        afterCommit(() -> {
            forgets.incrementAndGet();
            verified.asMap()
                    .values()
                    .removeIf(v -> v.isPresent() && v.get().caller().accountId().equals(accountId));
        });
    }

    private static void afterCommit(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });
        } else {
            action.run();
        }
    }
}
