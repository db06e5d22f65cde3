package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.UserTrustRoot;
import org.springframework.data.jpa.repository.JpaRepository;

/** Trust directory files users bootstrapped from MyProxy servers. */
public interface UserTrustRootRepository extends JpaRepository<UserTrustRoot, UUID> {

    /** @return a user's files, by name */
    List<UserTrustRoot> findByOwnerNameOrderByFileName(String ownerName);
}
