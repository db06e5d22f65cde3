package org.ferry.scheduler.drive;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Fencing: stops the work running on this instance (chunks of the embedded mover, jobs) of tasks
 * that another instance drives now (it took the lease), so that two movers never write one file
 * and two instances never walk one delete task. Only tasks that are ACTIVE and leased elsewhere
 * are stopped: a task that has just ended, whose last chunk is still winding down here, is left
 * alone (its end already stopped what had to stop).
 */
@Component
public class FenceStep implements TickStep {

    private static final Logger log = LoggerFactory.getLogger(FenceStep.class);

    private final TaskStore tasks;
    private final WorkQueue queue;
    private final TaskJobs jobs;

    /**
     * @param tasks the task store (who leases what)
     * @param queue the work queue (the embedded mover's running chunks)
     * @param jobs the jobs running here
     */
    public FenceStep(TaskStore tasks, WorkQueue queue, TaskJobs jobs) {
        this.tasks = tasks;
        this.queue = queue;
        this.jobs = jobs;
    }

    @Override
    public String name() {
        return "fence";
    }

    @Override
    public void run(Tick tick) {
        Set<UUID> here = new HashSet<>(queue.runningTasks());
        here.addAll(jobs.runningTasks());
        tick.leased().stream().map(LeasedTask::id).forEach(here::remove);
        if (here.isEmpty()) {
            return;
        }
        for (UUID taskId : tasks.leasedElsewhere(tick.instance(), here)) {
            log.warn("Task {} is driven by another instance now: stopping its work here", taskId);
            queue.cancelTask(taskId);
            jobs.stop(taskId);
        }
    }
}
