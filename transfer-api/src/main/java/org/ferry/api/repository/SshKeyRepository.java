package org.ferry.api.repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.SshKey;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** SSH public keys of accounts, found by fingerprint when a key signs in. */
public interface SshKeyRepository extends JpaRepository<SshKey, UUID> {

    /** @return an account's keys, oldest first */
    List<SshKey> findByAccountIdOrderByCreatedTime(UUID accountId);

    /** @return the account's key with this fingerprint */
    Optional<SshKey> findByAccountIdAndFingerprint(UUID accountId, String fingerprint);

    /**
     * Records a sign-in, at most once a minute per key.
     *
     * @return rows updated
     */
    @Transactional
    @Modifying
    @Query("update SshKey k set k.lastUsedTime = :now where k.id = :id"
            + " and (k.lastUsedTime is null or k.lastUsedTime < :minuteAgo)")
    int touch(@Param("id") UUID id, @Param("now") Instant now, @Param("minuteAgo") Instant minuteAgo);
}
