package org.ferry.scheduler.queue;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.ferry.mover.queue.ChunkMessage;

/**
 * Where dispatched chunks go to movers, and how stops reach them: the port with two adapters,
 * {@link org.ferry.scheduler.queue.embedded.InProcessWorkQueue} (the embedded default: a mover in this JVM) and
 * {@link org.ferry.scheduler.queue.kafka.KafkaWorkQueue} (ferry-mover processes in a Kafka
 * consumer group). The engine starts it with the port its results go to ({@link MoverResults}) and
 * stops it; delivery is at least once, and applying a result twice changes nothing.
 */
public interface WorkQueue {

    /**
     * Starts moving chunks (and taking the movers' results).
     *
     * @param results where the movers' results go
     */
    void start(MoverResults results);

    /** Stops: chunks moving in this JVM are aborted (their files resume after a restart). */
    void stop();

    /**
     * @param activeChunks chunks ACTIVE in the database now (all instances)
     * @return how many more chunks may be dispatched now
     */
    int freeSlots(int activeChunks);

    /** @return the chunks that may move at once when nothing moves (the optimizer's start spreads over them) */
    int capacity();

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
     * @return the tasks whose chunks run in this JVM now (the embedded mover), for fencing; empty
     *     when chunks run elsewhere (ferry-mover processes fence themselves)
     */
    default Set<UUID> runningTasks() {
        return Set.of();
    }

    /** Fencing of an embedded mover: this instance cannot renew its leases; stop every chunk here. */
    default void stopAll() {}
}
