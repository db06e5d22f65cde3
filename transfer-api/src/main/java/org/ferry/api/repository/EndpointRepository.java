package org.ferry.api.repository;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.springframework.data.jpa.repository.JpaRepository;

/** Endpoints. */
public interface EndpointRepository extends JpaRepository<Endpoint, UUID> {

    /** @return the endpoint named {@code owner#name} */
    Optional<Endpoint> findByCanonicalName(String canonicalName);

    /** @return a user's endpoints by canonical name */
    List<Endpoint> findByOwnerNameOrderByCanonicalName(String ownerName);
}
