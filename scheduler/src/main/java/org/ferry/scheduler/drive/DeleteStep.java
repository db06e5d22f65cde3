package org.ferry.scheduler.drive;

import java.util.UUID;
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
                start(task.id(), tick.instance());
            }
        }
    }

    /**
     * Starts the walk of a delete task this instance leases, unless it runs already.
     *
     * @param taskId the task
     * @param instance this instance's lease name
     */
    void start(UUID taskId, String instance) {
        jobs.start(taskId, "delete", job -> deletes.run(taskId, instance, job));
    }
}
