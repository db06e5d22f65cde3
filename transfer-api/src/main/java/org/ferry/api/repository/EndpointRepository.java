package org.ferry.api.repository;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Endpoints. */
public interface EndpointRepository extends JpaRepository<Endpoint, UUID> {

    /** @return the endpoint named {@code owner#name} */
    Optional<Endpoint> findByCanonicalName(String canonicalName);

    /** @return a user's endpoints by canonical name */
    List<Endpoint> findByOwnerNameOrderByCanonicalName(String ownerName);

    /** @return a user's own endpoints and every public endpoint, by canonical name */
    @Query("select e from Endpoint e where e.ownerName = :owner or e.isPublic = true order by e.canonicalName")
    List<Endpoint> findVisible(@Param("owner") String ownerName);
}
