package org.ferry.scheduler.drive;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.service.PersonalEndpoints;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Holds back tasks whose personal endpoint's agent (Ferry Connect) is not connected: such a task
 * stays ACTIVE with {@code nice_status} {@code GC_NOT_CONNECTED} (one event when the wait begins),
 * nothing of it is planned or dispatched, and it is looked at again every {@link #RECHECK}. Once
 * the agent is back its files go on from their restart markers. A revoked agent is not waited
 * for: {@link Activations#accessOf} fails the task.
 */
@Component
public class AgentWaits {

    /** How soon a waiting task is looked at again. */
    static final Duration RECHECK = Duration.ofSeconds(2);

    /** How long one pass's look at an endpoint is reused at most. */
    private static final long PASS_NANOS = 100_000_000L;

    private final EndpointRepository endpoints;
    private final PersonalEndpoints personal;
    private final TaskStore tasks;
    private final TransactionTemplate transactions;
    private final Map<UUID, Optional<Endpoint>> pass = new HashMap<>();
    private Instant passTime;
    private long passNanos;

    /**
     * @param endpoints endpoints
     * @param personal whose agents are connected
     * @param tasks task rows
     * @param transactions transactions
     */
    public AgentWaits(
            EndpointRepository endpoints,
            PersonalEndpoints personal,
            TaskStore tasks,
            TransactionTemplate transactions) {
        this.endpoints = endpoints;
        this.personal = personal;
        this.tasks = tasks;
        this.transactions = transactions;
    }

    /**
     * @param task a leased task about to be planned or dispatched
     * @param now the time
     * @return true if it must wait for an agent (it is marked so); false to go on
     */
    public boolean waiting(LeasedTask task, Instant now) {
        Optional<Endpoint> away = away(task.sourceEndpointId(), now).or(() -> away(task.destinationEndpointId(), now));
        if (away.isEmpty()) {
            if (EventCode.GC_NOT_CONNECTED.name().equals(task.niceStatus())) {
                // the agent is back: say so now, not at the task's first progress
                transactions.executeWithoutResult(
                        status -> tasks.endWait(task.id(), EventCode.GC_NOT_CONNECTED.name()));
            }
            return false;
        }
        String name = away.get().getCanonicalName();
        transactions.executeWithoutResult(status -> {
            if (tasks.waitFor(task.id(), EventCode.GC_NOT_CONNECTED.name(), now.plus(RECHECK))) {
                tasks.insertEvent(
                        task.id(),
                        EventCode.GC_NOT_CONNECTED,
                        "Endpoint " + name + " is not connected: its agent (ferry-connect) is not running or"
                                + " cannot reach the service. The task waits and goes on when it is back.",
                        "{\"endpoint\":\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}",
                        now);
            }
        });
        return true;
    }

    private Optional<Endpoint> away(UUID endpointId, Instant now) {
        if (endpointId == null) {
            return Optional.empty();
        }
        synchronized (pass) {
            if (!now.equals(passTime) || System.nanoTime() - passNanos > PASS_NANOS) {
                pass.clear();
                passTime = now;
                passNanos = System.nanoTime();
            }
            // one look per endpoint and pass, not two per leased task: hundreds of tasks share a
            // few endpoints
            return pass.computeIfAbsent(
                    endpointId,
                    id -> endpoints
                            .findById(id)
                            .filter(e -> e.isPersonal() && !e.isConnectRevoked() && !personal.reachable(e)));
        }
    }
}
