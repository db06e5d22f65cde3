package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TimerRun;
import org.springframework.data.jpa.repository.JpaRepository;

/** Timer run history (written by the scheduler with SQL, read here). */
public interface TimerRunRepository extends JpaRepository<TimerRun, Long> {

    /** @return a timer's ticks in scheduled order */
    List<TimerRun> findByTimerIdOrderByScheduledTime(UUID timerId);
}
