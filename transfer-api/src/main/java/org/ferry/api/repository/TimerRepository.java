package org.ferry.api.repository;

import jakarta.persistence.LockModeType;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Timer;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Timers. */
public interface TimerRepository extends JpaRepository<Timer, UUID> {

    /** @return a user's timers, oldest first */
    List<Timer> findByOwnerNameOrderBySubmittedAt(String ownerName);

    /** @return every timer, oldest first (for admins) */
    List<Timer> findAllByOrderBySubmittedAt();

    /**
     * Reads a timer and locks its row until the transaction ends. A tick takes the same row's lock
     * first (TimerRows.lockActive) and holds it until it has recorded its run: a change read this
     * way waits for a tick under way and sees what it recorded, and a later tick waits for the
     * change (and finds a paused timer paused). It also makes every writer take the timer row
     * before Quartz's locks, as the ticks do.
     *
     * @param id the timer id
     * @return the timer, if it exists
     */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select t from Timer t where t.id = :id")
    Optional<Timer> findByIdForUpdate(@Param("id") UUID id);
}
