package org.ferry.mover.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * Logged-in source and destination sessions that a finished piece of work (a task's planning, a
 * mover lane at the end of its chunk) gave back in a known state, for the next piece between the
 * same two endpoints: a one-file task then logs in once per lane instead of four times (two to plan,
 * two to move). Pairs stay together, so that the MODE E data connections the two servers cache
 * between them (GFD.020) are reused too.
 *
 * <p>A pair is kept only under the same {@link Key}: the same endpoint access on both sides (servers,
 * login, sealed credential) and the same data channel protection, so a changed credential or
 * server list never reuses a session of the old one (and giving back under the new one closes the
 * old one's idle pairs at once). At most {@code maxPerKey} pairs per key and {@code maxKeys} keys;
 * a pair idle for {@code idleTimeout} is closed (Caffeine's scheduler closes a key's pairs when the
 * key has been left alone that long; {@link #take} closes older ones it meets). A GSI pair is not
 * handed out once its credential is within {@link EndpointSessions#EXPIRY_MARGIN} of its end. A
 * session the server closed meanwhile is dropped on the way out. Callers give back only sessions
 * whose last command completed: a session after a fault is in an unknown state and must be closed,
 * never given back. Thread-safe.
 */
public final class IdleSessionPairs implements AutoCloseable {

    /** Pairs kept per key by default: more than a server's planner and worker threads together. */
    public static final int DEFAULT_MAX_PER_KEY = 8;

    /** Keys (endpoint pairs) kept by default. */
    public static final int DEFAULT_MAX_KEYS = 32;

    /** How long an idle pair is kept by default: well under servers' idle time-outs (minutes). */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What pairs are kept under.
     *
     * @param source the source endpoint's access
     * @param destination the destination endpoint's access
     * @param protection the least data channel protection the sessions were set to
     */
    public record Key(EndpointAccess source, EndpointAccess destination, ProtectionLevel protection) {

        boolean sameEndpoints(Key other) {
            return source.endpoint().equals(other.source.endpoint())
                    && destination.endpoint().equals(other.destination.endpoint());
        }
    }

    /**
     * A logged-in pair.
     *
     * @param source the session to the source endpoint
     * @param destination the session to the destination endpoint
     */
    public record Pair(GridFtpSession source, GridFtpSession destination) {

        boolean isOpen() {
            return source.isOpen() && destination.isOpen();
        }

        void close() {
            quietlyClose(source);
            quietlyClose(destination);
        }
    }

    private record Idle(Pair pair, Instant since, Instant usableUntil) {}

    private final EndpointSessions sessions;
    private final Clock clock;
    private final Duration idleTimeout;
    private final int maxPerKey;
    private final Cache<Key, Deque<Idle>> idle;

    /** Default bounds ({@link #DEFAULT_MAX_PER_KEY}, {@link #DEFAULT_MAX_KEYS}, {@link #DEFAULT_IDLE_TIMEOUT}). */
    public IdleSessionPairs(EndpointSessions sessions, Clock clock) {
        this(sessions, clock, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_PER_KEY, DEFAULT_MAX_KEYS);
    }

    /**
     * @param sessions reads GSI credentials' ends
     * @param clock what "now" is for idle times and credential ends
     * @param idleTimeout how long a pair may stay idle; zero keeps none (every pair given back is closed)
     * @param maxPerKey pairs kept per key, at least 1
     * @param maxKeys keys kept, at least 1
     */
    public IdleSessionPairs(EndpointSessions sessions, Clock clock, Duration idleTimeout, int maxPerKey, int maxKeys) {
        if (maxPerKey < 1 || maxKeys < 1) {
            throw new IllegalArgumentException("maxPerKey and maxKeys must be at least 1");
        }
        this.sessions = sessions;
        this.clock = clock;
        this.idleTimeout = idleTimeout;
        this.maxPerKey = maxPerKey;
        this.idle = Caffeine.newBuilder()
                .maximumSize(maxKeys)
                .expireAfterAccess(idleTimeout)
                .scheduler(Scheduler.systemScheduler())
                .executor(Runnable::run) // removed pairs are closed before giveBack/close return
                .<Key, Deque<Idle>>removalListener((key, pairs, cause) -> {
                    // a key's deque is changed in place; only a removed key's pairs are closed
                    if (pairs != null && cause != RemovalCause.REPLACED) {
                        closeAll(pairs);
                    }
                })
                .build();
    }

    /**
     * @param key the endpoints and protection wanted
     * @return the pair given back last under the key, both sessions open and usable, or null
     */
    public Pair take(Key key) {
        List<Idle> stale = new ArrayList<>();
        Idle[] found = new Idle[1];
        Instant now = clock.instant();
        idle.asMap().computeIfPresent(key, (k, pairs) -> {
            Idle next;
            while ((next = pairs.pollFirst()) != null) {
                if (usable(next, now)) {
                    found[0] = next;
                    break;
                }
                stale.add(next);
            }
            // the older ones have been idle longer still
            if (found[0] != null) {
                for (Idle older : pairs) {
                    if (!usable(older, now)) {
                        stale.add(older);
                    }
                }
                pairs.removeAll(stale);
            }
            return pairs.isEmpty() ? null : pairs;
        });
        stale.forEach(s -> s.pair().close());
        return found[0] == null ? null : found[0].pair();
    }

    private boolean usable(Idle entry, Instant now) {
        return entry.pair().isOpen()
                && now.isBefore(entry.since().plus(idleTimeout))
                && now.isBefore(entry.usableUntil());
    }

    /**
     * Keeps a pair for the next piece of work between the same endpoints, or closes it (a session
     * closed, a GSI credential at its end, the key's bound reached). Idle pairs of the same two
     * endpoints under another key (a changed credential or server list) are closed.
     *
     * @param key what the sessions were opened with
     * @param pair sessions whose last command completed (never after a fault)
     */
    public void giveBack(Key key, Pair pair) {
        if (idleTimeout.isZero()) {
            pair.close(); // reuse turned off
            return;
        }
        Instant until;
        try {
            until = usableUntil(key);
        } catch (IOException e) {
            pair.close(); // a credential that cannot be read or has run out: no reuse
            return;
        }
        if (!pair.isOpen() || !clock.instant().isBefore(until)) {
            pair.close();
            return;
        }
        idle.asMap().keySet().removeIf(other -> !other.equals(key) && other.sameEndpoints(key));
        boolean[] kept = new boolean[1];
        idle.asMap().compute(key, (k, pairs) -> {
            Deque<Idle> deque = pairs == null ? new ArrayDeque<>() : pairs;
            if (deque.size() < maxPerKey) {
                deque.addFirst(new Idle(pair, clock.instant(), until));
                kept[0] = true;
            }
            return deque.isEmpty() ? null : deque;
        });
        if (!kept[0]) {
            pair.close();
        }
    }

    private Instant usableUntil(Key key) throws IOException {
        Instant until = Instant.MAX;
        for (EndpointAccess access : List.of(key.source(), key.destination())) {
            if (access.isGsi()) {
                Instant end = sessions.credentialEnd(access).minus(EndpointSessions.EXPIRY_MARGIN);
                until = end.isBefore(until) ? end : until;
            }
        }
        return until;
    }

    /** @return pairs kept now, over all keys */
    public int size() {
        return idle.asMap().values().stream().mapToInt(Deque::size).sum();
    }

    /** Closes every idle pair. */
    @Override
    public void close() {
        idle.invalidateAll();
        idle.cleanUp();
    }

    private static void closeAll(Deque<Idle> pairs) {
        for (Idle entry : pairs) {
            entry.pair().close();
        }
    }

    private static void quietlyClose(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException ignored) {
            // closing what is no longer wanted
        }
    }
}
