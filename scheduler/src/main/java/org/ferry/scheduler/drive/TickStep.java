package org.ferry.scheduler.drive;

/**
 * One named step of the {@link TaskEngine}'s pass, run in the engine's order on the engine's
 * thread. A step that has long work to do (crawling, deleting) hands it to {@link TaskJobs}; a
 * step that throws ends the pass (the database went away: the next pass tries again).
 */
public interface TickStep {

    /** @return the step's name, for logs and metrics (lower case, hyphenated) */
    String name();

    /**
     * Does this step's part of the pass.
     *
     * @param tick the pass
     */
    void run(Tick tick);
}
