package org.ferry.api.repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.AccessToken;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** Access tokens, found by hash on every token-authenticated request. */
public interface AccessTokenRepository extends JpaRepository<AccessToken, UUID> {

    /** @return the token whose hash this is */
    Optional<AccessToken> findByTokenHash(String tokenHash);

    /** @return an account's tokens, newest first */
    List<AccessToken> findByAccountIdOrderByCreatedTimeDesc(UUID accountId);

    /**
     * Records a use, at most once a minute per token (a write per request would be waste).
     *
     * @return rows updated
     */
    @Transactional
    @Modifying
    @Query("update AccessToken t set t.lastUsedTime = :now where t.id = :id"
            + " and (t.lastUsedTime is null or t.lastUsedTime < :minuteAgo)")
    int touch(@Param("id") UUID id, @Param("now") Instant now, @Param("minuteAgo") Instant minuteAgo);
}
