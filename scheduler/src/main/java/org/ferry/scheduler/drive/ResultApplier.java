package org.ferry.scheduler.drive;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.FileState;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.mover.runner.FaultCode;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.state.FileRows;
import org.ferry.scheduler.state.TaskRows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies the movers' results to the durable state, many in one transaction. Idempotent: every
 * file update is guarded by the file's chunk and state (and a fault by its attempt number), a
 * chunk's end by the chunk's state, so a result delivered twice, late, or from a chunk taken away
 * from a lost mover changes nothing. A file becomes SUCCEEDED only on its mover's
 * {@link ResultMessage.Type#FILE_ARRIVED}, which the mover sends after the destination's 226 and a
 * size (or checksum) check; a verified checksum is kept in the row.
 *
 * <p>Faults: a permanent fault fails the file, and the task with a fatal error naming it, or with
 * {@code skip_source_errors} skips a source path (listed in {@code skipped_errors}); a transient
 * fault the mover gave up on puts the file back to PENDING after a back-off, and a chunk stopped by
 * one backs the whole task off (the endpoint is probably down) with exponential back-off and jitter,
 * until the deadline. A chunk stopped because an endpoint's credential expired
 * ({@code NO_CREDENTIALS}) makes the task INACTIVE instead ({@link Activations}).
 */
@Component
public class ResultApplier implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ResultApplier.class);
    private static final Set<String> SKIPPABLE =
            Set.of(FaultCode.FILE_NOT_FOUND.name(), FaultCode.PERMISSION_DENIED.name(), FaultCode.NOT_A_FILE.name());

    private final JdbcTemplate jdbc;
    private final TaskRows tasks;
    private final FileRows files;
    private final TransactionTemplate transactions;
    private final TaskEnding ending;
    private final ObjectProvider<Activations> activations;
    private final Wakeup wakeup;
    private final TransferProperties properties;
    private final LinkedBlockingQueue<ResultMessage> buffer = new LinkedBlockingQueue<>();
    private Thread thread;
    private volatile boolean running;

    /**
     * @param jdbc the database
     * @param tasks task rows
     * @param files file rows
     * @param transactions transactions
     * @param ending ends tasks
     * @param activations suspends tasks whose endpoint credential expired (looked up late)
     * @param wakeup wakes the scheduler when a chunk ends
     * @param properties back-off and batch size
     */
    public ResultApplier(
            JdbcTemplate jdbc,
            TaskRows tasks,
            FileRows files,
            TransactionTemplate transactions,
            TaskEnding ending,
            ObjectProvider<Activations> activations,
            Wakeup wakeup,
            TransferProperties properties) {
        this.jdbc = jdbc;
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.ending = ending;
        this.activations = activations;
        this.wakeup = wakeup;
        this.properties = properties;
    }

    /** Takes a result for the background thread to apply (the embedded mover's sink). */
    public void offer(ResultMessage result) {
        buffer.add(result);
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = new Thread(this::drain, "ferry-result-applier");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void drain() {
        List<ResultMessage> batch = new ArrayList<>();
        while (running) {
            try {
                ResultMessage first = buffer.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                buffer.drainTo(batch, properties.resultBatchSize() - 1);
                apply(batch);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("Applying mover results failed", e); // never let the thread die
            } finally {
                batch.clear();
            }
        }
    }

    /**
     * Applies results in one transaction, retrying (every second) while the database is
     * unreachable, then ends the tasks they completed. Returns once applied: a Kafka consumer
     * commits its offsets only then.
     *
     * @throws InterruptedException if stopped while the database is down
     */
    public void apply(List<ResultMessage> results) throws InterruptedException {
        if (results.isEmpty()) {
            return;
        }
        Outcome outcome = null;
        for (int attempt = 1; outcome == null; attempt++) {
            try {
                outcome = transactions.execute(status -> applyInTransaction(results));
            } catch (RuntimeException e) {
                if (attempt == 1 || attempt % 30 == 0) {
                    log.warn("Cannot apply {} mover results (attempt {}): {}", results.size(), attempt, e.toString());
                }
                Thread.sleep(1000);
            }
        }
        if (outcome.chunkEnded) {
            wakeup.wake();
        }
        try {
            for (Map.Entry<UUID, String[]> fatal : outcome.fatal.entrySet()) {
                ending.fail(fatal.getKey(), fatal.getValue()[0], fatal.getValue()[1]);
            }
            for (UUID taskId : outcome.maybeDone) {
                if (!outcome.fatal.containsKey(taskId)) {
                    ending.finishIfDone(taskId);
                }
            }
            // after the ends: a chunk whose last file arrived as its credential ran out ends the task
            for (Map.Entry<UUID, String> expired : outcome.credentialExpired.entrySet()) {
                if (!outcome.fatal.containsKey(expired.getKey())) {
                    activations.getObject().credentialExpired(expired.getKey(), expired.getValue());
                }
            }
        } catch (RuntimeException e) {
            // the database went away again: the results are in; the scheduler's tick ends these
            // tasks later (a failed file is in its row, so such a task never ends SUCCEEDED)
            log.warn("Ending tasks after applying mover results failed: {}", e.toString());
        }
    }

    /** What a batch changed, for the steps after its commit. */
    private static final class Outcome {
        final Set<UUID> maybeDone = new HashSet<>();
        final Map<UUID, String[]> fatal = new LinkedHashMap<>();
        final Map<UUID, String> credentialExpired = new LinkedHashMap<>();
        boolean chunkEnded;
    }

    private Outcome applyInTransaction(List<ResultMessage> results) {
        Instant now = Instant.now();
        Outcome outcome = new Outcome();
        Map<Long, ResultMessage> progress = new LinkedHashMap<>();
        Map<Long, ResultMessage> markers = new LinkedHashMap<>();
        List<ResultMessage> arrived = new ArrayList<>();
        List<ResultMessage> faults = new ArrayList<>();
        List<ResultMessage> chunkDone = new ArrayList<>();
        Map<Long, UUID> heardFrom = new HashMap<>();
        for (ResultMessage result : results) {
            heardFrom.put(result.chunkId(), result.taskId());
            switch (result.type()) {
                case PROGRESS -> progress.put(result.chunkId(), result);
                case MARKER -> markers.merge(result.fileId(), result, (a, b) -> bytes(b) >= bytes(a) ? b : a);
                case FILE_ARRIVED -> arrived.add(result);
                case FILE_FAULT -> faults.add(result);
                case CHUNK_DONE -> chunkDone.add(result);
            }
        }
        // any result is a heartbeat of its chunk
        jdbc.batchUpdate(
                "update chunk set heartbeat_time = ? where id = ? and state = 'ACTIVE'",
                new ArrayList<>(heardFrom.keySet()),
                500,
                (ps, chunkId) -> {
                    ps.setTimestamp(1, Timestamp.from(now));
                    ps.setLong(2, chunkId);
                });
        if (!progress.isEmpty()) {
            jdbc.batchUpdate(
                    "update chunk set bytes_in_flight = ?, mover = ? where id = ? and state = 'ACTIVE'",
                    new ArrayList<>(progress.values()),
                    500,
                    (ps, result) -> {
                        ps.setLong(1, result.bytes());
                        ps.setString(2, result.mover());
                        ps.setLong(3, result.chunkId());
                    });
            progress.values().stream().map(ResultMessage::taskId).distinct().forEach(tasks::refreshBytesInFlight);
        }
        if (!markers.isEmpty()) {
            jdbc.batchUpdate(
                    "update transfer_file set acknowledged = ?, bytes_acknowledged = ?"
                            + " where id = ? and chunk_id = ? and state = 'ACTIVE' and bytes_acknowledged <= ?",
                    new ArrayList<>(markers.values()),
                    500,
                    (ps, result) -> {
                        long bytes = bytes(result);
                        ps.setString(1, ranges(result.acknowledged()));
                        ps.setLong(2, bytes);
                        ps.setLong(3, result.fileId());
                        ps.setLong(4, result.chunkId());
                        ps.setLong(5, bytes);
                    });
        }
        if (!arrived.isEmpty()) {
            applyArrived(arrived, now, outcome);
        }
        for (ResultMessage fault : faults) {
            applyFault(fault, now, outcome);
        }
        for (ResultMessage done : chunkDone) {
            applyChunkDone(done, now, outcome);
        }
        return outcome;
    }

    private void applyArrived(List<ResultMessage> arrived, Instant now, Outcome outcome) {
        int[][] counts = jdbc.batchUpdate(
                "update transfer_file set state = ?, completion_time = ?, acknowledged = null, bytes_acknowledged = 0,"
                        + " checksum = ? where id = ? and chunk_id = ? and state = 'ACTIVE'",
                arrived,
                500,
                (ps, result) -> {
                    ps.setString(1, FileState.SUCCEEDED.name());
                    ps.setTimestamp(2, Timestamp.from(now));
                    ps.setString(3, cut(result.checksum(), 128));
                    ps.setLong(4, result.fileId());
                    ps.setLong(5, result.chunkId());
                });
        Map<UUID, long[]> perTask = new LinkedHashMap<>();
        int index = 0;
        for (int[] batch : counts) {
            for (int count : batch) {
                ResultMessage result = arrived.get(index++);
                if (count > 0) {
                    long[] sums = perTask.computeIfAbsent(result.taskId(), id -> new long[2]);
                    sums[0]++;
                    sums[1] += result.bytes();
                }
            }
        }
        perTask.forEach((taskId, sums) -> {
            tasks.addArrived(taskId, sums[0], sums[1]);
            outcome.maybeDone.add(taskId);
        });
    }

    private void applyFault(ResultMessage fault, Instant now, Outcome outcome) {
        UUID taskId = fault.taskId();
        String state;
        Instant nextAttempt = null;
        boolean skip = false;
        if (fault.willRetry()) {
            state = FileState.ACTIVE.name();
        } else if (fault.permanent()) {
            skip = fault.onSource() && SKIPPABLE.contains(fault.code()) && skipsSourceErrors(taskId);
            state = skip ? FileState.SKIPPED.name() : FileState.FAILED.name();
        } else {
            state = FileState.PENDING.name();
            nextAttempt = now.plus(properties.backoff(
                    fault.attempt(), ThreadLocalRandom.current().nextDouble()));
        }
        boolean ends = !fault.willRetry();
        String acknowledged = ranges(fault.acknowledged());
        int changed = jdbc.update(
                "update transfer_file set attempts = ?, fault_code = ?, fault_description = ?, acknowledged = ?,"
                        + " bytes_acknowledged = ?, state = ?, chunk_id = ?, next_attempt_time = ?, completion_time = ?"
                        + " where id = ? and chunk_id = ? and state = 'ACTIVE' and attempts < ?",
                fault.attempt(),
                fault.code(),
                cut(fault.description(), 2000),
                acknowledged,
                bytes(fault),
                state,
                ends ? null : fault.chunkId(),
                nextAttempt == null ? null : Timestamp.from(nextAttempt),
                ends && fault.permanent() ? Timestamp.from(now) : null,
                fault.fileId(),
                fault.chunkId(),
                fault.attempt());
        if (changed == 0) {
            return; // applied before, or the file left this chunk
        }
        boolean active = tasks.addFaults(taskId, 1, fault.code());
        if (skip) {
            tasks.addFailedAndSkipped(taskId, 0, 1);
            if (active) {
                tasks.insertEvent(
                        taskId,
                        EventCode.SKIPPED_ERRORS,
                        "Skipped a source error (skip_source_errors): " + fault.description(),
                        "{\"error_code\":\"" + fault.code() + "\"}",
                        now);
            }
            outcome.maybeDone.add(taskId);
            return;
        }
        if (active) {
            tasks.insertEvent(taskId, eventCode(fault.code()), fault.description(), null, now);
        }
        if (ends && fault.permanent()) {
            tasks.addFailedAndSkipped(taskId, 1, 0);
            outcome.fatal.putIfAbsent(taskId, new String[] {fault.code(), fault.description()});
        }
    }

    private void applyChunkDone(ResultMessage done, Instant now, Outcome outcome) {
        UUID taskId = files.endChunk(done.chunkId(), "DONE", null);
        if (taskId == null) {
            return; // ended before (a repeated message, or taken as lost)
        }
        outcome.chunkEnded = true;
        outcome.maybeDone.add(taskId);
        tasks.refreshBytesInFlight(taskId);
        if (FaultCode.NO_CREDENTIALS.name().equals(done.code())) {
            // an endpoint's credential expired: no back-off, the task goes INACTIVE after the
            // commit (unless its endpoint was activated again meanwhile)
            outcome.credentialExpired.put(
                    taskId, done.description() == null ? "An endpoint's credential expired" : done.description());
        } else if (done.code() != null) {
            // a file gave up on a transient fault and the chunk stopped: the endpoint is probably
            // down; back the task off before its files are offered again
            int consecutive = tasks.consecutiveFaults(taskId) + 1;
            Instant retryAfter = now.plus(
                    properties.backoff(consecutive, ThreadLocalRandom.current().nextDouble()));
            tasks.backOff(taskId, done.code(), retryAfter);
        }
    }

    private boolean skipsSourceErrors(UUID taskId) {
        List<Boolean> skip =
                jdbc.queryForList("select skip_source_errors from task where id = ?", Boolean.class, taskId);
        return !skip.isEmpty() && Boolean.TRUE.equals(skip.get(0));
    }

    private static EventCode eventCode(String code) {
        try {
            return EventCode.valueOf(code);
        } catch (IllegalArgumentException | NullPointerException e) {
            return EventCode.UNKNOWN;
        }
    }

    /** @return bytes in the result's acknowledged ranges */
    private static long bytes(ResultMessage result) {
        String text = result.acknowledged();
        if (text == null || text.isBlank()) {
            return 0;
        }
        return ByteRange.parseList(text).stream().mapToLong(ByteRange::length).sum();
    }

    /**
     * @return the ranges as stored: null for none; a list too long for the column keeps its first
     *     ranges (resuming with fewer acknowledged ranges only sends some bytes again)
     */
    private static String ranges(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        if (text.length() <= 4000) {
            return text;
        }
        String cut = text.substring(0, 4000);
        return cut.substring(0, cut.lastIndexOf(','));
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    /** Runs before the work queue stops and after it starts: results keep flowing while movers end. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE - 100;
    }
}
