package org.ferry.scheduler.drive;

import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Fails the leased tasks whose deadline has passed ({@code EXPIRED}), before anything of them is
 * planned or dispatched, and the INACTIVE tasks past theirs (no instance leases those). Deadlines
 * are columns of the task rows, read again on every pass: they survive restarts with no job per
 * task.
 */
@Component
public class DeadlineStep implements TickStep {

    private static final Logger log = LoggerFactory.getLogger(DeadlineStep.class);

    private final TaskStore tasks;
    private final TaskEnding ending;

    /**
     * @param tasks the task store
     * @param ending ends the tasks
     */
    public DeadlineStep(TaskStore tasks, TaskEnding ending) {
        this.tasks = tasks;
        this.ending = ending;
    }

    @Override
    public String name() {
        return "deadlines";
    }

    @Override
    public void run(Tick tick) {
        for (LeasedTask task : tick.leased()) {
            if (task.deadline() != null && !tick.now().isBefore(task.deadline())) {
                if (ending.fail(
                        task.id(), EventCode.EXPIRED.name(), "The task's deadline passed before it completed")) {
                    log.info("Task {} expired", task.id());
                }
            }
        }
        for (UUID inactive : tasks.inactivePastDeadline(tick.now())) {
            if (ending.fail(
                    inactive,
                    EventCode.EXPIRED.name(),
                    "The task's deadline passed while it was INACTIVE, waiting for an endpoint's activation")) {
                log.info("Task {} expired while INACTIVE", inactive);
            }
        }
    }
}
