package org.ferry.scheduler.drive;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.ferry.api.domain.EventCode;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.TransferProperties;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes a PROGRESS event for each planned transfer whose counters moved, at most every
 * {@code ferry.transfer.progress-interval-seconds}: the points of the task's throughput chart.
 */
@Component
public class ProgressStep implements TickStep {

    private final TaskStore tasks;
    private final TransactionTemplate transactions;
    private final TransferProperties properties;
    private final Map<UUID, long[]> lastProgress = new ConcurrentHashMap<>();

    /**
     * @param tasks the task store
     * @param transactions transactions
     * @param properties the interval
     */
    public ProgressStep(TaskStore tasks, TransactionTemplate transactions, TransferProperties properties) {
        this.tasks = tasks;
        this.transactions = transactions;
        this.properties = properties;
    }

    @Override
    public String name() {
        return "progress";
    }

    @Override
    public void run(Tick tick) {
        long intervalMillis = properties.progressIntervalSeconds() * 1000L;
        long now = tick.now().toEpochMilli();
        lastProgress
                .keySet()
                .retainAll(tick.leased().stream().map(LeasedTask::id).toList());
        for (LeasedTask task : tick.transfers()) {
            if (!task.planned()) {
                continue;
            }
            long[] last = lastProgress.computeIfAbsent(task.id(), id -> new long[] {0, 0, now});
            boolean moved = task.bytesTransferred() != last[0] || task.filesTransferred() != last[1];
            if (moved && now - last[2] >= intervalMillis) {
                last[0] = task.bytesTransferred();
                last[1] = task.filesTransferred();
                last[2] = now;
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        task.id(),
                        EventCode.PROGRESS,
                        "Progress update",
                        "{\"bytes_transferred\":" + task.bytesTransferred() + ",\"files_transferred\":"
                                + task.filesTransferred() + "}"));
            }
        }
    }
}
