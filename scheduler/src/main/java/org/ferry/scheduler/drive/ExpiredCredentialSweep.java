package org.ferry.scheduler.drive;

import java.time.Duration;
import java.time.Instant;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.repository.EndpointCredentialRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Deletes the activated endpoint credentials ({@code endpoint_credential}) that have expired, so
 * that an expired proxy credential does not sit in the database until its owner happens to
 * activate or deactivate the endpoint again. {@link TaskEngine}'s tick calls {@link #sweepIfDue}:
 * it sweeps when the earliest stored credential has reached its end, and at least every
 * {@code ferry.credentials.expired-sweep-interval} (default 1 minute; that catches credentials
 * another ferry-server instance stored). An activation on this instance makes the next tick look
 * again, so a short-lived credential goes within a tick of its end. Idempotent: several instances
 * on one database may sweep at once.
 *
 * <p>Nothing else changes: a credential stops being usable {@code EndpointSessions.EXPIRY_MARGIN}
 * before its end, so the activation status ({@code activated}, {@code expires_in}) and the
 * scheduler's view of the endpoint are the same before and after the row goes.
 */
@Component
public class ExpiredCredentialSweep implements TickStep {

    private static final Logger log = LoggerFactory.getLogger(ExpiredCredentialSweep.class);

    private final EndpointCredentialRepository credentials;
    private final Duration interval;
    private Instant due = Instant.MIN;

    /**
     * @param credentials activated credentials
     * @param interval {@code ferry.credentials.expired-sweep-interval}: the longest time between two
     *     sweeps
     */
    public ExpiredCredentialSweep(
            EndpointCredentialRepository credentials,
            @Value("${ferry.credentials.expired-sweep-interval:60s}") Duration interval) {
        this.credentials = credentials;
        this.interval = interval;
    }

    @Override
    public String name() {
        return "credential-sweep";
    }

    @Override
    public void run(Tick tick) {
        sweepIfDue(tick.now());
    }

    /**
     * Deletes the expired credentials if a sweep is due.
     *
     * @param now the time
     * @return how many credentials were deleted (0 when no sweep was due)
     */
    public synchronized int sweepIfDue(Instant now) {
        if (now.isBefore(due)) {
            return 0;
        }
        int deleted = credentials.deleteExpired(now);
        if (deleted > 0) {
            log.info("Deleted {} expired endpoint credential(s)", deleted);
        }
        Instant next = now.plus(interval);
        Instant earliest = credentials.earliestExpiry();
        due = earliest != null && earliest.isBefore(next) ? earliest : next;
        return deleted;
    }

    /**
     * A new credential was stored (and committed): the next tick reads the earliest end again.
     * Synchronized with the sweep, so that a sweep that read the earliest end before this commit
     * cannot set its due time after this.
     */
    @TransactionalEventListener(fallbackExecution = true)
    public synchronized void onEndpointActivated(EndpointActivatedEvent event) {
        due = Instant.MIN;
    }
}
