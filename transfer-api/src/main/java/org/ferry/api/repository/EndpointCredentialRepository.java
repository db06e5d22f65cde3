package org.ferry.api.repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.EndpointCredential;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** Activated credentials, one per endpoint and user. */
public interface EndpointCredentialRepository extends JpaRepository<EndpointCredential, UUID> {

    /** @return the credential a user activated an endpoint with */
    Optional<EndpointCredential> findByEndpointIdAndOwnerName(UUID endpointId, String ownerName);

    /** @return a user's credentials, any endpoint */
    List<EndpointCredential> findByOwnerName(String ownerName);

    /**
     * Forgets a user's credential for an endpoint.
     *
     * @return rows deleted
     */
    @Transactional
    @Modifying
    @Query("delete from EndpointCredential c where c.endpointId = :endpoint and c.ownerName = :owner")
    int deleteByEndpointAndOwner(@Param("endpoint") UUID endpointId, @Param("owner") String ownerName);

    /**
     * Deletes every credential that has expired: an expired proxy is of no use to anyone and must
     * not sit in the database.
     *
     * @param now the time; credentials whose {@code not_after} is at or before it go
     * @return rows deleted
     */
    @Transactional
    @Modifying
    @Query("delete from EndpointCredential c where c.notAfter <= :now")
    int deleteExpired(@Param("now") Instant now);

    /** @return the earliest end of any stored credential, or null when none is stored */
    @Query("select min(c.notAfter) from EndpointCredential c")
    Instant earliestExpiry();
}
