package org.ferry.mover.server.multicast;

import java.io.InterruptedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * What of an incoming transfer is on this server's disk so far, for the forwarders that follow it:
 * the gap-free prefix (MODE E blocks arrive in any order over parallel streams, and a window goes
 * on only once every byte of it is written), its end once the transfer is complete, or that it
 * failed. Offsets are relative to the transfer's first byte. Written by the receiving data path,
 * read by one forwarder thread per branch.
 */
final class ArrivedRanges {

    /** Pieces past the prefix, start to end (exclusive). */
    private final TreeMap<Long, Long> pieces = new TreeMap<>();

    private long prefix;
    private boolean complete;
    private boolean failed;

    /** Records {@code [start, end)} as written. */
    synchronized void add(long start, long end) {
        if (start <= prefix) {
            prefix = Math.max(prefix, end);
        } else {
            pieces.merge(start, end, Math::max);
        }
        for (Map.Entry<Long, Long> first = pieces.firstEntry();
                first != null && first.getKey() <= prefix;
                first = pieces.firstEntry()) {
            prefix = Math.max(prefix, first.getValue());
            pieces.pollFirstEntry();
        }
        notifyAll();
    }

    /** The transfer ended with every byte written (226 owed). */
    synchronized void complete() {
        complete = true;
        notifyAll();
    }

    /** The transfer failed: forwarders stop. */
    synchronized void fail() {
        failed = true;
        notifyAll();
    }

    /** @return true once {@link #fail} was called */
    synchronized boolean failed() {
        return failed;
    }

    /** @return the gap-free prefix written so far, in bytes */
    synchronized long prefix() {
        return prefix;
    }

    /**
     * Waits for the next window to forward.
     *
     * @param from the first byte not yet forwarded
     * @param min bytes to wait for before a window goes (fewer at the end)
     * @param max the most bytes of one window
     * @return the end (exclusive) of the window {@code [from, end)}, or -1 when the transfer is
     *     complete and everything up to its end was forwarded
     * @throws InterruptedIOException when the transfer failed, or the thread was interrupted
     */
    synchronized long awaitWindow(long from, long min, long max) throws InterruptedIOException {
        while (true) {
            if (failed) {
                throw new InterruptedIOException("the incoming transfer failed");
            }
            if (prefix - from >= min || (complete && prefix > from)) {
                return Math.min(prefix, from + max);
            }
            if (complete) {
                return -1;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for data to forward");
            }
        }
    }
}
