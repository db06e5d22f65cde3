package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.domain.Task;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.queue.ChunkMessage;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.optimize.Allowance;
import org.ferry.scheduler.optimize.Optimizer;
import org.ferry.scheduler.plan.Chunker;
import org.ferry.scheduler.plan.PlanningException;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Hands chunks to the work queue while it has free slots, fairly: each next chunk goes to the
 * task whose user has the fewest chunks moving, then the task with the fewest, then the task
 * served longest ago (round-robin across users and tasks), within the per-user and per-endpoint-
 * pair limits. A one-file task submitted behind a task of a million files gets the next free slot:
 * it has no chunk moving, the big one has all of them. Chunks are cut from the database (smallest
 * files first, at most {@code chunk-max-files}), never from a list in memory.
 *
 * <p>The {@link Optimizer}'s value per endpoint pair bounds the session pairs of the pair's chunks
 * in flight (over every task, user and instance): a chunk gets the fixed rules' concurrency, or the
 * pair's value spread over the work queue's chunk slots if that is more, at most what the pair has
 * free; its parallelism is the fixed rules', at most the optimizer's per file.
 */
@Component
public class Dispatcher implements TickStep {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final Set<String> QUEUED =
            Set.of(Task.NICE_QUEUED_USER_LIMIT, Task.NICE_QUEUED_PAIR_LIMIT, Task.NICE_QUEUED_NO_SLOT);

    private final FileStore files;
    private final TransactionTemplate transactions;
    private final WorkQueue queue;
    private final TaskEnding ending;
    private final Activations activations;
    private final TransferProperties properties;
    private final Chunker chunker;
    private final AgentWaits agents;
    private final Optimizer optimizer;
    private final Map<UUID, Long> lastServed = new ConcurrentHashMap<>();

    private final TaskStore tasks;

    /**
     * @param files the file store
     * @param transactions transactions
     * @param queue the work queue
     * @param ending ends tasks whose endpoint vanished
     * @param activations the owners' endpoint access (sealed credentials) and suspensions
     * @param properties limits and chunk size
     * @param tasks shows why a task waits ({@code nice_status})
     * @param agents holds back tasks whose personal endpoint's agent is away
     * @param optimizer session pairs and parallelism per endpoint pair
     */
    public Dispatcher(
            FileStore files,
            TransactionTemplate transactions,
            WorkQueue queue,
            TaskEnding ending,
            Activations activations,
            TransferProperties properties,
            TaskStore tasks,
            AgentWaits agents,
            Optimizer optimizer) {
        this.optimizer = optimizer;
        this.tasks = tasks;
        this.agents = agents;
        this.files = files;
        this.transactions = transactions;
        this.queue = queue;
        this.ending = ending;
        this.activations = activations;
        this.properties = properties;
        this.chunker = new Chunker(properties.chunkMaxFiles(), properties.chunkMaxBytes());
    }

    @Override
    public String name() {
        return "dispatch";
    }

    @Override
    public void run(Tick tick) {
        dispatch(tick.transfers(), tick.now());
        List<UUID> leased = tick.leased().stream().map(LeasedTask::id).toList();
        lastServed.keySet().retainAll(leased);
    }

    /**
     * Dispatches chunks of the given tasks while slots are free.
     *
     * @param leased the ACTIVE transfer tasks this instance drives
     * @param now the time
     * @return chunks dispatched
     */
    public int dispatch(List<LeasedTask> leased, Instant now) {
        List<LeasedTask> candidates = new ArrayList<>();
        for (LeasedTask task : leased) {
            if (task.planned()
                    && (task.retryAfter() == null || !task.retryAfter().isAfter(now))
                    && (task.deadline() == null || task.deadline().isAfter(now))
                    && !agents.waiting(task, now)) {
                candidates.add(task);
            }
        }
        if (candidates.isEmpty()) {
            return 0;
        }
        Map<String, Integer> perUser = new HashMap<>();
        Map<String, Integer> perPair = new HashMap<>();
        Map<UUID, Integer> perTask = new HashMap<>();
        Map<String, Integer> sessions = new HashMap<>();
        int slots = queue.freeSlots(files.activeChunks(perUser, perPair, perTask, sessions));
        Optimizer.Allowances allowances = optimizer.allowances();
        int dispatched = 0;
        // the waiting reasons of this pass, in one order (task ids) whichever pass writes them
        Map<UUID, String> shown = new TreeMap<>();
        while (slots > 0 && !candidates.isEmpty()) {
            Optional<LeasedTask> next = candidates.stream()
                    .filter(t -> within(perUser.getOrDefault(t.ownerName(), 0), properties.maxActiveChunksPerUser()))
                    .filter(t -> within(
                            perPair.getOrDefault(t.endpointPair(), 0), properties.maxActiveChunksPerEndpointPair()))
                    .filter(t -> freeSessions(t, allowances, sessions) > 0)
                    .min(Comparator.<LeasedTask>comparingInt(t -> perUser.getOrDefault(t.ownerName(), 0))
                            .thenComparingInt(t -> perTask.getOrDefault(t.id(), 0))
                            .thenComparingLong(t -> lastServed.getOrDefault(t.id(), 0L)));
            if (next.isEmpty()) {
                break;
            }
            LeasedTask task = next.get();
            Allowance allowance = allowances.of(task.endpointPair());
            // its first chunk of this pass: it no longer waits (the row said so when the pass read
            // it); written with the chunk, before the chunk moves, so that the result applier
            // never waits for this row
            boolean waited =
                    task.niceStatus() != null && QUEUED.contains(task.niceStatus()) && !perTask.containsKey(task.id());
            int lanes = dispatchOne(task, now, freeSessions(task, allowances, sessions), allowance, waited);
            if (lanes == 0) {
                candidates.remove(task);
                continue;
            }
            sessions.merge(task.endpointPair(), lanes, Integer::sum);
            lastServed.put(task.id(), System.nanoTime());
            perUser.merge(task.ownerName(), 1, Integer::sum);
            perPair.merge(task.endpointPair(), 1, Integer::sum);
            perTask.merge(task.id(), 1, Integer::sum);
            slots--;
            dispatched++;
        }
        // what is left waits: with no chunk moving, it says which limit holds it
        for (LeasedTask task : candidates) {
            if (perTask.getOrDefault(task.id(), 0) > 0) {
                continue; // it moves: waiting for more slots is not news
            }
            String reason = !within(perUser.getOrDefault(task.ownerName(), 0), properties.maxActiveChunksPerUser())
                    ? Task.NICE_QUEUED_USER_LIMIT
                    : !within(perPair.getOrDefault(task.endpointPair(), 0), properties.maxActiveChunksPerEndpointPair())
                                    || freeSessions(task, allowances, sessions) <= 0
                            ? Task.NICE_QUEUED_PAIR_LIMIT
                            : slots <= 0 ? Task.NICE_QUEUED_NO_SLOT : null;
            // written on a change only, judged by the row as this pass read it (not by a copy in
            // memory): a fault code written over the reason since gives way to the reason again
            if (reason != null && !reason.equals(task.niceStatus())) {
                shown.put(task.id(), reason);
            }
        }
        if (!shown.isEmpty()) {
            // one commit for the pass, not one per task: 256 one-file tasks behind 2 slots wrote 256
            // single-row transactions of their reasons (tasks with no chunk moving: the result
            // applier has nothing to write to their rows)
            transactions.executeWithoutResult(status -> shown.forEach(tasks::showWaiting));
        }
        return dispatched;
    }

    private static boolean within(int count, int limit) {
        return limit <= 0 || count < limit;
    }

    /** @return session pairs the task's endpoint pair may still open (the optimizer's value less those in flight) */
    private static int freeSessions(LeasedTask task, Optimizer.Allowances allowances, Map<String, Integer> sessions) {
        long free =
                (long) allowances.of(task.endpointPair()).concurrency() - sessions.getOrDefault(task.endpointPair(), 0);
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, free));
    }

    /**
     * The chunk's tuning: the fixed rules', with the concurrency spread from the optimizer's value
     * over the queue's chunk slots (at least the fixed rules'), at most the pair's free session pairs
     * and the chunk's files, and the parallelism at most the optimizer's.
     */
    private ChunkTuning tuning(List<FileTransfer> chunkFiles, int free, Allowance allowance) {
        ChunkTuning fixed = ChunkTuning.forFiles(chunkFiles);
        if (allowance.concurrency() == Integer.MAX_VALUE) {
            return fixed; // the optimizer is off
        }
        int capacity = Math.max(1, queue.capacity());
        int spread = (allowance.concurrency() + capacity - 1) / capacity;
        int concurrency =
                Math.max(1, Math.min(Math.min(free, chunkFiles.size()), Math.max(fixed.concurrency(), spread)));
        int parallelism = Math.max(1, Math.min(fixed.parallelism(), allowance.parallelism()));
        return new ChunkTuning(concurrency, parallelism, fixed.pipelining());
    }

    /** @return the chunk's session pairs, 0 if the task has no ready file (or cannot run) */
    private int dispatchOne(LeasedTask task, Instant now, int free, Allowance allowance, boolean waited) {
        List<FileTransfer> chunkFiles = chunker.cut(files.ready(task.id(), now, chunker.maxFiles()));
        if (chunkFiles.isEmpty()) {
            return 0;
        }
        ChunkTuning tuning = tuning(chunkFiles, free, allowance);
        Reached reached;
        try {
            // one read-only transaction: the endpoint rows come once, the expiry reuses them
            reached = activations.inOneRead(() -> {
                EndpointAccess source =
                        activations.accessOf(task.ownerName(), task.sourceEndpointId(), task.sourceEndpoint());
                EndpointAccess destination = activations.accessOf(
                        task.ownerName(), task.destinationEndpointId(), task.destinationEndpoint());
                List<EndpointAccess> additional = new ArrayList<>();
                List<UUID> endpointIds =
                        new ArrayList<>(List.of(task.sourceEndpointId(), task.destinationEndpointId()));
                // multicast: every further destination in the chunk, or the chunk does not go at all
                for (NewTask.Destination further : tasks.additionalDestinations(task.id())) {
                    additional.add(activations.accessOf(task.ownerName(), further.endpointId(), further.endpoint()));
                    endpointIds.add(further.endpointId());
                }
                return new Reached(
                        source, destination, additional, activations.credentialsExpire(task.ownerName(), endpointIds));
            });
        } catch (PlanningException e) {
            ending.fail(task.id(), e.code().name(), e.getMessage());
            return 0;
        } catch (ActivationRequiredException e) {
            activations.suspend(task.id(), e.getMessage());
            return 0;
        }
        EndpointAccess source = reached.source();
        EndpointAccess destination = reached.destination();
        List<EndpointAccess> additional = reached.additional();
        Instant credentialsExpire = reached.credentialsExpire();
        int lanes = Math.max(1, Math.min(tuning.concurrency(), chunkFiles.size()));
        Long chunkId = transactions.execute(status -> {
            long created = files.createChunk(task.id(), task.ownerName(), task.endpointPair(), chunkFiles, lanes, now);
            if (waited) {
                tasks.showWaiting(task.id(), Task.NICE_OK);
            }
            return created;
        });
        if (chunkId == null || chunkId < 0) {
            return 0;
        }
        queue.submit(new ChunkMessage(
                MessageCodec.VERSION,
                chunkId,
                task.id(),
                task.deadline() == null ? null : task.deadline().toEpochMilli(),
                credentialsExpire == null ? null : credentialsExpire.toEpochMilli(),
                new ChunkRequest(
                        source,
                        destination,
                        chunkFiles,
                        tuning,
                        task.options().verifyChecksum(),
                        task.options().encryptData() ? ProtectionLevel.PRIVATE : ProtectionLevel.CLEAR,
                        task.options().preserveTimestamp(),
                        ChecksumAlgorithm.parse(task.options().checksumAlgorithm()),
                        additional)));
        log.debug("Dispatched chunk {} of task {}: {} files, {}", chunkId, task.id(), chunkFiles.size(), tuning);
        return lanes;
    }

    /** A chunk's endpoints as its owner reaches them now, and when their first credential expires. */
    private record Reached(
            EndpointAccess source,
            EndpointAccess destination,
            List<EndpointAccess> additional,
            Instant credentialsExpire) {}
}
