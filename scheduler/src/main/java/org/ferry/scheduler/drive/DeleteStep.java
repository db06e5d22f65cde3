package org.ferry.scheduler.drive;

import org.ferry.api.domain.TaskType;
import org.ferry.api.store.LeasedTask;
import org.springframework.stereotype.Component;

/**
 * Runs each leased delete task (not backing off) as a job ({@link DeleteJob}) on this instance,
 * one job per task at a time: leased like a transfer, so that exactly one instance walks it and
 * another takes it over when its server dies.
 */
@Component
public class DeleteStep implements TickStep {

    private final DeleteJob deletes;
    private final TaskJobs jobs;

    /**
     * @param deletes runs a delete task
     * @param jobs runs it off the engine's thread
     */
    public DeleteStep(DeleteJob deletes, TaskJobs jobs) {
        this.deletes = deletes;
        this.jobs = jobs;
    }

    @Override
    public String name() {
        return "delete";
    }

    @Override
    public void run(Tick tick) {
        for (LeasedTask task : tick.leased()) {
            if (task.type() == TaskType.DELETE && tick.readyNow(task) && !tick.expired(task)) {
                jobs.start(task.id(), "delete", job -> deletes.run(task.id(), tick.instance(), job));
            }
        }
    }
}
