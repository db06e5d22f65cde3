package org.ferry.scheduler.plan;

import org.ferry.api.store.PlannedFile;

/** Where the planner writes the files it finds, one at a time (the sink batches them into the database). */
@FunctionalInterface
public interface PlanSink {

    /** @param file a file to move, or a skipped source error */
    void add(PlannedFile file);

    /**
     * A file the sync level found current at the destination (not written as a row; a dry run
     * lists it).
     *
     * @param sourcePath the source file
     * @param destinationPath the destination file
     * @param sizeBytes its size
     */
    default void current(String sourcePath, String destinationPath, long sizeBytes) {}

    /**
     * A name the filter rules left out (a directory with everything below it).
     *
     * @param sourcePath the source path
     * @param destinationPath where it would have gone
     * @param directory whether it is a directory
     */
    default void excluded(String sourcePath, String destinationPath, boolean directory) {}
}
