package org.ferry.scheduler.queue;

import java.time.Duration;

/**
 * Where planned chunks wait for movers. Kafka-shaped: producers {@link #submit} chunk messages,
 * consumers {@link #poll} with a timeout. Delivery is at least once in the Kafka adapter, so a
 * consumer must tolerate a chunk of a task that has already ended (it drops it).
 */
public interface WorkQueue {

    /**
     * Queues a chunk.
     *
     * @param chunk the chunk message
     */
    void submit(TransferChunk chunk);

    /**
     * Takes the next chunk.
     *
     * @param timeout how long to wait for one
     * @return the chunk, or null if none arrived in time
     * @throws InterruptedException if the consumer thread is interrupted (shutdown)
     */
    TransferChunk poll(Duration timeout) throws InterruptedException;
}
