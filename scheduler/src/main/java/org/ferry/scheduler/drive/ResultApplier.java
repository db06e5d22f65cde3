package org.ferry.scheduler.drive;

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
import org.ferry.api.store.ChunkProgress;
import org.ferry.api.store.ChunkTransition;
import org.ferry.api.store.FileArrival;
import org.ferry.api.store.FileFault;
import org.ferry.api.store.FileMarker;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.FileTransition;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.mover.runner.FaultCode;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.optimize.Optimizer;
import org.ferry.scheduler.optimize.PairMeter;
import org.ferry.scheduler.queue.MoverResults;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
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
 * until the deadline. A login a server refused as busy ({@code SESSION_REFUSED}) changes no row but
 * counts as a transient fault of the endpoint pair for the optimizer. A chunk stopped because an endpoint's credential expired
 * ({@code NO_CREDENTIALS}) makes the task INACTIVE instead ({@link Activations}).
 */
@Component
public class ResultApplier implements MoverResults {

    private static final Logger log = LoggerFactory.getLogger(ResultApplier.class);
    private static final Set<String> SKIPPABLE =
            Set.of(FaultCode.FILE_NOT_FOUND.name(), FaultCode.PERMISSION_DENIED.name(), FaultCode.NOT_A_FILE.name());

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final TaskEnding ending;
    private final Activations activations;
    private final Wakeup wakeup;
    private final TransferProperties properties;
    private final PairMeter meter;
    private final LinkedBlockingQueue<ResultMessage> buffer = new LinkedBlockingQueue<>();
    private Thread thread;
    private volatile boolean running;

    /**
     * @param tasks task rows
     * @param files file rows
     * @param transactions transactions
     * @param ending ends tasks
     * @param activations suspends tasks whose endpoint credential expired
     * @param wakeup wakes the scheduler when a chunk ends
     * @param properties back-off and batch size
     * @param optimizer counts each endpoint pair's arrivals and transient faults
     */
    public ResultApplier(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            TaskEnding ending,
            Activations activations,
            Wakeup wakeup,
            TransferProperties properties,
            Optimizer optimizer) {
        this.meter = optimizer.meter();
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.ending = ending;
        this.activations = activations;
        this.wakeup = wakeup;
        this.properties = properties;
    }

    /** Takes a result for the background thread to apply (the embedded mover's sink). */
    @Override
    public void offer(ResultMessage result) {
        buffer.add(result);
    }

    /** Starts the background thread that applies what {@link #offer} took ({@link TaskEngine} calls it). */
    public synchronized void start() {
        running = true;
        thread = new Thread(this::drain, "ferry-result-applier");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the background thread. */
    public synchronized void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
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
     * Applies results in one transaction, retrying (after 10 ms when it lost a deadlock, every second
     * while the database is unreachable), then ends the tasks they completed. Returns once applied: a
     * Kafka consumer commits its offsets only then.
     *
     * @throws InterruptedException if stopped while the database is down
     */
    @Override
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
                // a deadlock victim (H2 rolled the batch back) tries again at once; a database
                // that went away, in a second
                Thread.sleep(e instanceof PessimisticLockingFailureException ? 10 : 1000);
            }
        }
        if (outcome.chunkEnded) {
            wakeup.wake();
        }
        // counted once the batch is in (a retried transaction counts nothing twice)
        for (Map.Entry<Long, long[]> counted : outcome.perChunk.entrySet()) {
            String pair = outcome.pairs.get(counted.getKey());
            long[] c = counted.getValue();
            if (pair != null) {
                if (c[1] > 0) {
                    meter.arrived(pair, c[0], (int) c[1]);
                }
                for (long i = 0; i < c[2]; i++) {
                    meter.failed(pair);
                }
            }
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
                    activations.credentialExpired(expired.getKey(), expired.getValue());
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
        /** per chunk: bytes arrived, files arrived, transient faults (for the optimizer) */
        final Map<Long, long[]> perChunk = new HashMap<>();

        Map<Long, String> pairs = Map.of();
        boolean chunkEnded;

        long[] of(long chunkId) {
            return perChunk.computeIfAbsent(chunkId, id -> new long[3]);
        }
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
                case SESSION_REFUSED -> {
                    // a login refused as busy (421): the chunk goes on, but the pair's server is at
                    // its session limit, which the optimizer must see (FTS3 counts such failures)
                    outcome.of(result.chunkId())[2]++;
                }
            }
        }
        // any result is a heartbeat of its chunk
        files.heartbeats(new ArrayList<>(heardFrom.keySet()), now);
        if (!progress.isEmpty()) {
            files.progress(progress.values().stream()
                    .map(p -> new ChunkProgress(p.chunkId(), p.bytes(), p.mover(), p.destinations()))
                    .toList());
            progress.values().stream().map(ResultMessage::taskId).distinct().forEach(tasks::refreshBytesInFlight);
        }
        if (!markers.isEmpty()) {
            files.markers(markers.values().stream()
                    .map(m -> new FileMarker(m.fileId(), m.chunkId(), ranges(m.acknowledged()), bytes(m)))
                    .toList());
        }
        if (!arrived.isEmpty()) {
            applyArrived(arrived, now, outcome);
        }
        for (ResultMessage fault : faults) {
            applyFault(fault, now, outcome);
        }
        // a chunk that ended frees its mover's slot, also when its task's end (its last file's
        // arrival, applied in an earlier batch) ended the chunk first: the engine dispatches the
        // next chunk at once instead of on its next tick
        outcome.chunkEnded = !chunkDone.isEmpty();
        for (ResultMessage done : chunkDone) {
            applyChunkDone(done, now, outcome);
        }
        if (!outcome.perChunk.isEmpty()) {
            outcome.pairs = files.chunkPairs(outcome.perChunk.keySet());
        }
        return outcome;
    }

    private void applyArrived(List<ResultMessage> arrived, Instant now, Outcome outcome) {
        boolean[] moved = files.arrived(
                arrived.stream()
                        .map(r -> new FileArrival(r.fileId(), r.chunkId(), r.taskId(), r.bytes(), r.checksum()))
                        .toList(),
                now);
        Map<UUID, long[]> perTask = new LinkedHashMap<>();
        for (int i = 0; i < moved.length; i++) {
            if (moved[i]) {
                ResultMessage result = arrived.get(i);
                long[] sums = perTask.computeIfAbsent(result.taskId(), id -> new long[2]);
                sums[0]++;
                sums[1] += result.bytes();
                long[] counted = outcome.of(result.chunkId());
                counted[0] += result.bytes();
                counted[1]++;
            }
        }
        perTask.forEach((taskId, sums) -> {
            tasks.addArrived(taskId, sums[0], sums[1]);
            outcome.maybeDone.add(taskId);
        });
    }

    private void applyFault(ResultMessage fault, Instant now, Outcome outcome) {
        UUID taskId = fault.taskId();
        FileTransition transition;
        Instant nextAttempt = null;
        boolean skip = false;
        // a full destination or an exhausted quota: by default the file waits for space like any
        // transient fault (its task backs off on the chunk's end); fail_on_quota_errors fails it
        boolean quotaFatal = !fault.willRetry() && waitsForSpace(fault.code()) && tasks.failsOnQuotaErrors(taskId);
        if (fault.willRetry()) {
            transition = FileTransition.RETRY_IN_CHUNK;
        } else if (quotaFatal) {
            transition = FileTransition.FAIL;
        } else if (fault.permanent()) {
            skip = fault.onSource() && SKIPPABLE.contains(fault.code()) && tasks.skipsSourceErrors(taskId);
            transition = skip ? FileTransition.SKIP : FileTransition.FAIL;
        } else {
            transition = FileTransition.GIVE_BACK;
            nextAttempt = now.plus(properties.backoff(
                    fault.attempt(), ThreadLocalRandom.current().nextDouble()));
        }
        boolean ends = !fault.willRetry();
        boolean changed = files.fault(
                new FileFault(
                        fault.fileId(),
                        fault.chunkId(),
                        fault.attempt(),
                        fault.code(),
                        fault.description(),
                        ranges(fault.acknowledged()),
                        bytes(fault)),
                transition,
                nextAttempt,
                now);
        if (!changed) {
            return; // applied before, or the file left this chunk
        }
        if (!fault.permanent()) {
            outcome.of(fault.chunkId())[2]++; // a transient fault says something of the link
        }
        if (fault.destinations() != null) {
            files.destinationsHeld(fault.fileId(), fault.destinations()); // multicast: kept for GET /task
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
        boolean fatal = ends && (fault.permanent() || quotaFatal);
        // the fault that fails the task is told once, by the task's end (same code and description)
        if (active && !(fatal && !outcome.fatal.containsKey(taskId))) {
            tasks.insertEvent(taskId, eventCode(fault.code()), fault.description(), null, now);
        }
        if (fatal) {
            tasks.addFailedAndSkipped(taskId, 1, 0);
            outcome.fatal.putIfAbsent(taskId, new String[] {fault.code(), fault.description()});
        }
    }

    /** @return whether the code names a full destination or an exhausted quota */
    private static boolean waitsForSpace(String code) {
        return FaultCode.NO_SPACE_LEFT.name().equals(code)
                || FaultCode.QUOTA_EXCEEDED.name().equals(code);
    }

    private void applyChunkDone(ResultMessage done, Instant now, Outcome outcome) {
        UUID taskId = files.endChunk(done.chunkId(), ChunkTransition.FINISH, null);
        if (taskId == null) {
            return; // ended before (a repeated message, or taken as lost)
        }
        outcome.maybeDone.add(taskId);
        tasks.refreshBytesInFlight(taskId);
        if (FaultCode.NO_CREDENTIALS.name().equals(done.code())) {
            // an endpoint's credential expired: no back-off, the task goes INACTIVE after the
            // commit (unless its endpoint was activated again meanwhile)
            outcome.credentialExpired.put(
                    taskId, done.description() == null ? "An endpoint's credential expired" : done.description());
        } else if (done.code() != null) {
            outcome.of(done.chunkId())[2]++;
            // a file gave up on a transient fault and the chunk stopped: the endpoint is probably
            // down, or the destination full (nice_status NO_SPACE_LEFT / QUOTA_EXCEEDED says so);
            // back the task off before its files are offered again
            int consecutive = tasks.consecutiveFaults(taskId) + 1;
            Instant retryAfter = now.plus(
                    properties.backoff(consecutive, ThreadLocalRandom.current().nextDouble()));
            tasks.backOff(taskId, done.code(), retryAfter);
        }
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
}
