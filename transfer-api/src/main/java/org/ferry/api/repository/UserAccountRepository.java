package org.ferry.api.repository;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.UserAccount;
import org.springframework.data.jpa.repository.JpaRepository;

/** Accounts. */
public interface UserAccountRepository extends JpaRepository<UserAccount, UUID> {

    /** @return the account called {@code name} */
    Optional<UserAccount> findByName(String name);

    /** @return the accounts with these names */
    List<UserAccount> findByNameIn(Collection<String> names);

    /** @return every account by name */
    List<UserAccount> findAllByOrderByName();

    /** @return whether an account has this role */
    boolean existsByRole(Role role);
}
