package org.ferry.scheduler.drive;

import org.ferry.api.store.LeasedTask;
import org.springframework.stereotype.Component;

/**
 * Hands each leased transfer that is not planned yet (and not backing off) to a planning job
 * ({@link PlanningJob}: the crawl, the file rows), one job per task at a time.
 */
@Component
public class PlanStep implements TickStep {

    private final PlanningJob planning;
    private final TaskJobs jobs;

    /**
     * @param planning plans a task
     * @param jobs runs the planning off the engine's thread
     */
    public PlanStep(PlanningJob planning, TaskJobs jobs) {
        this.planning = planning;
        this.jobs = jobs;
    }

    @Override
    public String name() {
        return "plan";
    }

    @Override
    public void run(Tick tick) {
        for (LeasedTask task : tick.transfers()) {
            if (!task.planned() && tick.readyNow(task) && !tick.expired(task)) {
                jobs.start(task.id(), "planning", job -> planning.plan(task.id()));
            }
        }
    }
}
