package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.List;
import org.ferry.api.store.LeasedTask;

/**
 * One pass of the {@link TaskEngine}: what every {@link TickStep} of it works on.
 *
 * @param now the time the pass started
 * @param leased the ACTIVE tasks this instance drives (holds the lease of), oldest first
 * @param first true on the first pass after this instance started
 * @param instance this instance's lease name
 * @param renewal true on a pass that renewed the leases (once per tick interval); false on one
 *     woken between (a submission, a chunk's end), for steps that need not run that often
 */
public record Tick(Instant now, List<LeasedTask> leased, boolean first, String instance, boolean renewal) {

    /** Copies the list. */
    public Tick {
        leased = List.copyOf(leased);
    }

    /** @return the leased transfer tasks */
    public List<LeasedTask> transfers() {
        return leased.stream().filter(LeasedTask::isTransfer).toList();
    }

    /**
     * @param task a leased task
     * @return true if its back-off is over (no {@code retry_after}, or it has passed)
     */
    public boolean readyNow(LeasedTask task) {
        return task.retryAfter() == null || !task.retryAfter().isAfter(now);
    }

    /**
     * @param task a leased task
     * @return true if its deadline has passed (the deadline step fails it in this pass)
     */
    public boolean expired(LeasedTask task) {
        return task.deadline() != null && !now.isBefore(task.deadline());
    }
}
