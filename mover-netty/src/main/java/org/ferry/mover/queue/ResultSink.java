package org.ferry.mover.queue;

/** Where a mover's results go: the results topic, or the embedded scheduler directly. */
@FunctionalInterface
public interface ResultSink {

    /**
     * Publishes a result; never blocks for long (a transport buffers and retries by itself).
     *
     * @param result the result
     */
    void publish(ResultMessage result);
}
