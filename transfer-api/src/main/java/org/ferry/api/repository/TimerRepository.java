package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Timer;
import org.springframework.data.jpa.repository.JpaRepository;

/** Timers. */
public interface TimerRepository extends JpaRepository<Timer, UUID> {

    /** @return a user's timers, oldest first */
    List<Timer> findByOwnerNameOrderBySubmittedAt(String ownerName);

    /** @return every timer, oldest first (for admins) */
    List<Timer> findAllByOrderBySubmittedAt();
}
