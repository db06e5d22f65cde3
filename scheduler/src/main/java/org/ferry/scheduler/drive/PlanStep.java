package org.ferry.scheduler.drive;

import java.util.UUID;
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
    private final AgentWaits agents;

    /**
     * @param planning plans a task
     * @param jobs runs the planning off the engine's thread
     * @param agents holds back tasks whose personal endpoint's agent is away
     */
    public PlanStep(PlanningJob planning, TaskJobs jobs, AgentWaits agents) {
        this.agents = agents;
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
            if (!task.planned() && tick.readyNow(task) && !tick.expired(task) && !agents.waiting(task, tick.now())) {
                start(task.id());
            }
        }
    }

    /**
     * Starts the planning of a task this instance leases, unless it runs already.
     *
     * @param taskId the task
     */
    void start(UUID taskId) {
        jobs.start(taskId, "planning", job -> planning.plan(taskId, job::stopRequested));
    }
}
