package org.ferry.scheduler.plan;

import org.ferry.scheduler.state.PlannedFile;

/** Where the planner writes the files it finds, one at a time (the sink batches them into the database). */
@FunctionalInterface
public interface PlanSink {

    /** @param file a file to move, or a skipped source error */
    void add(PlannedFile file);
}
