package org.ferry.api.repository;

import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.UserAccount;
import org.springframework.data.jpa.repository.JpaRepository;

/** Users, found by token hash on every API request. */
public interface UserAccountRepository extends JpaRepository<UserAccount, UUID> {

    /** @return the user whose token hashes to {@code tokenHash} */
    Optional<UserAccount> findByTokenHash(String tokenHash);

    /** @return the user called {@code name} */
    Optional<UserAccount> findByName(String name);
}
