package org.ferry.mover.runner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.ferry.mover.client.GridFtpSession;

/**
 * Which destinations of a multicast file (the first one, then the further ones in order) hold it
 * whole, and how much of it each holds meanwhile: what a retry needs so that it sends the file
 * only to those that lack it, and what the service shows per destination.
 *
 * <p>A retry asks each destination (before the next attempt). The first destination holds the
 * file when its temporary copy has the planned size and either its last attempt ended in {@code
 * 451 Multicast} (the first destination answers that only with the whole file written there, see
 * {@code MulticastStage}) or its checksum equals the source's. A further destination holds it when
 * its copy has that size and the same checksum as the first destination's (a copy cut short by a
 * killed server may have the full size with holes, so the size alone does not tell). A destination
 * that cannot be asked does not hold it. Not thread-safe: one lane's thread, and the poller it
 * joins ({@link #poll}), which only writes {@link #bytes}.
 */
final class MulticastCopies {

    private final long size;
    private final boolean[] holding;
    private final long[] bytes;
    private boolean firstComplete;

    /**
     * @param destinations the first destination and the further ones
     * @param size the file's planned size in bytes
     */
    MulticastCopies(int destinations, long size) {
        this.size = size;
        this.holding = new boolean[destinations];
        this.bytes = new long[destinations];
    }

    /** The first destination answered {@code 451 Multicast}: its copy is whole (some branch failed). */
    void firstComplete() {
        firstComplete = true;
    }

    /** The first destination is written again from the source: what it held before is gone. */
    void sendingToFirst() {
        firstComplete = false;
    }

    /** @return whether the first destination holds the file whole, checked */
    boolean firstHolds() {
        return holding[0];
    }

    /** @return whether every destination holds the file */
    boolean allHold() {
        for (boolean held : holding) {
            if (!held) {
                return false;
            }
        }
        return true;
    }

    /** @return positions (0 the first destination) of the destinations that lack the file */
    List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < holding.length; i++) {
            if (!holding[i]) {
                missing.add(i);
            }
        }
        return missing;
    }

    /**
     * @param destination a position
     * @param now bytes of the file there now (a marker or a poll)
     */
    synchronized void bytes(int destination, long now) {
        if (!holding[destination]) {
            bytes[destination] = Math.max(0, Math.min(size, now));
        }
    }

    /** Every destination holds the file (the attempt's checks passed). */
    synchronized void allChecked() {
        Arrays.fill(holding, true);
        Arrays.fill(bytes, size);
    }

    /** Reports the bytes and holders to the listener. */
    synchronized void report(ChunkListener listener, FileTransfer file) {
        listener.onDestinationProgress(file, bytes.clone(), holding.clone());
    }

    /**
     * Asks each destination not known to hold the file whether it does (see the class comment).
     *
     * @param chunk the chunk (its checksum algorithm)
     * @param lane the lane's sessions
     * @param file the file
     * @param writing its temporary path at every destination
     * @throws IOException if the first destination or the source cannot be asked
     */
    void ask(ChunkRequest chunk, SessionPair lane, FileTransfer file, String writing) throws IOException {
        String algorithm = chunk.checksumAlgorithm().name();
        if (!holding[0]) {
            long there = lane.destination().sizes(List.of(writing))[0];
            bytes[0] = Math.max(0, there);
            if (there != size) {
                return;
            }
            if (!firstComplete) {
                String sourceSum = lane.source().checksum(algorithm, file.sourcePath());
                String firstSum = lane.destination().checksum(algorithm, writing);
                if (!sourceSum.equalsIgnoreCase(firstSum)) {
                    return;
                }
            }
            holding[0] = true;
            bytes[0] = size;
        }
        String firstSum = null;
        for (int i = 1; i < holding.length; i++) {
            if (holding[i]) {
                continue;
            }
            try {
                GridFtpSession other = lane.additionalDestination(i - 1);
                long there = other.sizes(List.of(writing))[0];
                bytes[i] = Math.max(0, there);
                if (there != size) {
                    continue;
                }
                if (firstSum == null) {
                    firstSum = lane.destination().checksum(algorithm, writing).toLowerCase(Locale.ROOT);
                }
                if (firstSum.equals(other.checksum(algorithm, writing).toLowerCase(Locale.ROOT))) {
                    holding[i] = true;
                    bytes[i] = size;
                }
            } catch (IOException | RuntimeException e) {
                lane.closeAdditional(i - 1); // down or broken: it gets the file again
                bytes[i] = 0;
            }
        }
    }

    /**
     * Polls the further destinations that lack the file for their copy's size, about once a second,
     * while the first destination forwards it to them; {@link Poller#close} stops and joins it
     * before the lane uses those sessions again.
     *
     * @param lane the lane's sessions (only the further destinations' are used, which the lane's
     *     thread leaves alone until the poller is closed)
     * @param writing the temporary path
     * @param listener where the bytes go
     * @param file the file
     * @return the running poller
     */
    Poller poll(SessionPair lane, String writing, ChunkListener listener, FileTransfer file) {
        List<Integer> watched = new ArrayList<>();
        List<GridFtpSession> sessions = new ArrayList<>();
        for (int i = 1; i < holding.length; i++) {
            if (!holding[i]) {
                try {
                    sessions.add(lane.additionalDestination(i - 1));
                    watched.add(i);
                } catch (IOException | RuntimeException e) {
                    // not reachable now: the transfer's own reply will say so
                }
            }
        }
        Poller poller = new Poller(watched, sessions, writing, listener, file);
        poller.thread.start();
        return poller;
    }

    /** The thread of {@link #poll}. */
    final class Poller implements AutoCloseable {
        private static final long PERIOD_MILLIS = 1000;

        private final Thread thread;
        private final Object lock = new Object();
        private boolean stopped;

        private Poller(
                List<Integer> watched,
                List<GridFtpSession> sessions,
                String writing,
                ChunkListener listener,
                FileTransfer file) {
            List<GridFtpSession> failed = new ArrayList<>();
            this.thread = new Thread(
                    () -> {
                        while (waitPeriod()) {
                            for (int k = 0; k < watched.size(); k++) {
                                GridFtpSession session = sessions.get(k);
                                if (failed.contains(session)) {
                                    continue;
                                }
                                try {
                                    long there = session.sizes(List.of(writing))[0];
                                    synchronized (MulticastCopies.this) {
                                        bytes(watched.get(k), there);
                                    }
                                } catch (IOException | RuntimeException e) {
                                    failed.add(session); // the lane finds out after the transfer
                                }
                            }
                            synchronized (MulticastCopies.this) {
                                report(listener, file);
                            }
                        }
                    },
                    "multicast-progress");
            thread.setDaemon(true);
        }

        /** @return false once stopped */
        private boolean waitPeriod() {
            synchronized (lock) {
                if (!stopped) {
                    try {
                        lock.wait(PERIOD_MILLIS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
                return !stopped;
            }
        }

        /** Stops polling and waits for a poll in progress (never interrupted: a reply owed stays read). */
        @Override
        public void close() {
            synchronized (lock) {
                stopped = true;
                lock.notifyAll();
            }
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
