package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.store.ChunkTransition;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Takes the chunks whose mover went silent as lost: a chunk of this instance's tasks that sent
 * nothing for {@code ferry.transfer.chunk-timeout} (unless the transport itself was down lately)
 * ends LOST, its files go back to PENDING with their acknowledged ranges, and a cancel goes to the
 * movers in case its mover lives after all. On the first pass after a start, the chunks an earlier
 * run of this instance moved in its own JVM (the embedded mover) are lost at once.
 */
@Component
public class LostChunkStep implements TickStep {

    private static final Logger log = LoggerFactory.getLogger(LostChunkStep.class);

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final WorkQueue queue;
    private final TransferProperties properties;

    /**
     * @param tasks the task store
     * @param files the file store
     * @param transactions transactions
     * @param queue the work queue
     * @param properties the chunk timeout
     */
    public LostChunkStep(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            WorkQueue queue,
            TransferProperties properties) {
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.queue = queue;
        this.properties = properties;
    }

    @Override
    public String name() {
        return "lost-chunks";
    }

    @Override
    public void run(Tick tick) {
        if (tick.first() && queue.chunksEndWithThisProcess()) {
            // an earlier run of this instance moved these chunks in its own JVM: they are gone
            for (LeasedTask task : tick.transfers()) {
                for (long chunkId : files.activeChunkIds(task.id())) {
                    transactions.executeWithoutResult(status -> files.endChunk(chunkId, ChunkTransition.LOSE, null));
                }
            }
        }
        Instant silentSince = tick.now().minus(properties.chunkTimeout());
        if (queue.deliveringSince().isAfter(silentSince)) {
            return; // the transport itself was down lately: silence proves nothing about the movers
        }
        for (long chunkId : files.silentChunks(tick.instance(), silentSince)) {
            UUID taskId = transactions.execute(status -> files.endChunk(chunkId, ChunkTransition.LOSE, null));
            queue.cancelChunk(chunkId); // should its mover be alive after all, it stops
            if (taskId != null) {
                log.warn(
                        "Chunk {} of task {}: no word from its mover for {}; its files are offered again",
                        chunkId,
                        taskId,
                        properties.chunkTimeout());
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        taskId,
                        EventCode.CONNECTION_BROKEN,
                        "A mover went silent; its files are offered again and resume from their restart markers",
                        "{\"chunk_id\":" + chunkId + "}"));
            }
        }
    }
}
