package org.ferry.scheduler.queue;

import java.util.List;
import org.ferry.mover.queue.ResultMessage;

/**
 * The port a {@link WorkQueue} is started with: where the movers' results go (the scheduler's
 * result applier). Applying is idempotent, so a transport may deliver a result more than once.
 */
public interface MoverResults {

    /**
     * Takes a result to apply soon, without waiting (the embedded mover's threads).
     *
     * @param result the result
     */
    void offer(ResultMessage result);

    /**
     * Applies results and returns once they are in the database, so that a transport acknowledges
     * them only then (a Kafka consumer commits its offsets after this returns).
     *
     * @param results the results, in the order they came
     * @throws InterruptedException if stopped while the database is unreachable
     */
    void apply(List<ResultMessage> results) throws InterruptedException;
}
