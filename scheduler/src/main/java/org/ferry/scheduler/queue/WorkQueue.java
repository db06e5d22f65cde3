package org.ferry.scheduler.queue;

import java.time.Instant;
import java.util.UUID;
import org.ferry.mover.queue.ChunkMessage;

/**
 * Where dispatched chunks go to movers, and how stops reach them: the port with two adapters,
 * {@link org.ferry.scheduler.queue.embedded.InProcessWorkQueue} (the embedded default: a mover in this JVM) and
 * {@link org.ferry.scheduler.queue.kafka.KafkaWorkQueue} (ferry-mover processes in a Kafka
 * consumer group). Results come back to the {@link org.ferry.scheduler.drive.ResultApplier}.
 * Delivery is at least once; the applier's guards make a repeated result harmless.
 */
public interface WorkQueue {

    /**
     * @param activeChunks chunks ACTIVE in the database now (all instances)
     * @return how many more chunks may be dispatched now
     */
    int freeSlots(int activeChunks);

    /**
     * Sends a chunk to the movers (after its rows committed).
     *
     * @param chunk the chunk message
     */
    void submit(ChunkMessage chunk);

    /** Stops every chunk of the task, wherever it runs. */
    void cancelTask(UUID taskId);

    /** Stops one chunk, wherever it runs (it was taken as lost and offered again). */
    void cancelChunk(long chunkId);

    /**
     * @return since when results could have come through without a break (a mover's silence
     *     counts as its loss only when the transport worked meanwhile); {@link Instant#EPOCH}
     *     for a transport that cannot fail
     */
    Instant deliveringSince();

    /**
     * @return true if chunks run in this JVM (the embedded mover): after a restart, the chunks an
     *     earlier run of this instance left ACTIVE are gone and are offered again at once
     */
    default boolean chunksEndWithThisProcess() {
        return false;
    }

    /**
     * Fencing of an embedded mover: stops the chunks running in this JVM whose task this instance
     * no longer drives (another instance took its lease), so that two movers never write one file.
     *
     * @param leased the tasks this instance drives now
     */
    default void keepOnly(java.util.Set<UUID> leased) {}

    /** Fencing of an embedded mover: this instance cannot renew its leases; stop every chunk here. */
    default void stopAll() {}
}
