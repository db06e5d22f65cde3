package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.EndpointServer;
import org.springframework.data.jpa.repository.JpaRepository;

/** The GridFTP servers of endpoints. */
public interface EndpointServerRepository extends JpaRepository<EndpointServer, Long> {

    /** @return an endpoint's servers in the order they are tried */
    List<EndpointServer> findByEndpointIdOrderByPositionAscIdAsc(UUID endpointId);
}
