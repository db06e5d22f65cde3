package org.ferry.api.repository;

import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.PendingDelegation;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/** Key pairs waiting for a user's signed proxy (delegate-proxy activation). */
public interface PendingDelegationRepository extends JpaRepository<PendingDelegation, UUID> {

    /** @return the pending key pair of a user for an endpoint */
    Optional<PendingDelegation> findByEndpointIdAndOwnerName(UUID endpointId, String ownerName);

    /**
     * @return rows deleted
     */
    @Transactional
    @Modifying
    @Query("delete from PendingDelegation d where d.endpointId = :endpoint and d.ownerName = :owner")
    int deleteByEndpointAndOwner(@Param("endpoint") UUID endpointId, @Param("owner") String ownerName);
}
