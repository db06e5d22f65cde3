package org.ferry.mover.server.multicast;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.ByteRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards one incoming transfer to one child of the tree while it arrives: each window of the
 * written prefix ({@link ArrivedRanges}) is read back from this server's file and sent as {@code
 * ESTO A offset} (the first one of a STOR as {@code STOR}, which creates or truncates the child's
 * file); a child with its own subtree gets the tree's disk stack first and forwards the windows
 * on. What the child acknowledged (each window's 226, and the 111 range markers within a window,
 * GFD.020 "Restarting") are its markers. When the child fails (its server dies, a data channel
 * breaks), the branch is retried from this server's copy, never from the source: a leaf gets only
 * what its markers lack; a child with a subtree gets the transfer again from its first byte, since
 * what it had passed on below is unknown. A child that reports its own subtree failed (451
 * "Multicast") is not retried: that failure goes up as it is. Runs on its own thread.
 */
final class BranchForwarder {

    /** Opens the file being received here, for reading. */
    @FunctionalInterface
    interface FileSource {
        FileChannel open() throws IOException;
    }

    private static final Logger LOG = LoggerFactory.getLogger(BranchForwarder.class);

    /** A child's reply that says its subtree failed past its retries: passed up, not retried. */
    static final String SUBTREE_FAILED = "Multicast";

    private final MulticastPolicy policy;
    private final MulticastTree.Branch branch;
    private final BranchSessions sessions;
    private final FileSource localFile;
    private final String path;
    private final long base;
    private final boolean store;
    private final ArrivedRanges arrived;
    private final int parallelism;

    /** Ranges of this transfer (relative) the child acknowledged. */
    private final List<ByteRange> acknowledged = new ArrayList<>();

    private volatile int restarts;

    /**
     * @param policy windows and retries
     * @param branch the child and its subtree
     * @param sessions the stage's sessions to its children
     * @param localFile opens this server's file for reading, once per attempt
     * @param path the path on the child
     * @param base the file offset of the transfer's first byte (0 for STOR, the ESTO offset)
     * @param store true for a STOR (the child's file is created or truncated by the first window)
     * @param arrived what of the transfer is written here
     * @param parallelism MODE E streams of each window
     */
    BranchForwarder(
            MulticastPolicy policy,
            MulticastTree.Branch branch,
            BranchSessions sessions,
            FileSource localFile,
            String path,
            long base,
            boolean store,
            ArrivedRanges arrived,
            int parallelism) {
        this.policy = policy;
        this.branch = branch;
        this.sessions = sessions;
        this.localFile = localFile;
        this.path = path;
        this.base = base;
        this.store = store;
        this.arrived = arrived;
        this.parallelism = parallelism;
    }

    /** @return the child, without credentials */
    String destination() {
        return branch.server().toString();
    }

    /** @return bytes the child acknowledged */
    synchronized long acknowledgedBytes() {
        return ByteRange.merge(acknowledged).stream()
                .mapToLong(ByteRange::length)
                .sum();
    }

    /** @return how often the branch was restarted */
    int restarts() {
        return restarts;
    }

    /**
     * Forwards the whole transfer, retrying the child as the policy says.
     *
     * @throws IOException the child's last failure once the retries are used up, its subtree's
     *     failure, or that the incoming transfer failed
     */
    void run() throws IOException {
        RetryWindow retries = new RetryWindow(policy.retryFor());
        while (true) {
            try {
                forwardAll();
                return;
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                sessions.drop(branch);
                if (e instanceof GridFtpReplyException reply
                        && reply.replyCode() == 451
                        && e.getMessage().contains(SUBTREE_FAILED)) {
                    throw e;
                }
                if (!retries.retry(Instant.now(), acknowledgedBytes()) || arrived.failed()) {
                    throw e;
                }
                LOG.warn(
                        "multicast branch {} failed with {} bytes of this transfer acknowledged; resending the rest from this"
                                + " server's copy: {}",
                        destination(),
                        acknowledgedBytes(),
                        e.toString());
                restarts++;
                if (branch.below() != null) {
                    synchronized (this) {
                        acknowledged.clear(); // its subtree may lack what it had: all of it again
                    }
                }
                pause();
            }
        }
    }

    /** Sends what the child lacks of what has arrived, then every further window, until the end. */
    private void forwardAll() throws IOException {
        GridFtpSession session = sessions.session(branch);
        long max = policy.windowBytes();
        long min = Math.max(1, max / 4);
        try (FileChannel file = localFile.open()) {
            long from = 0;
            while (true) {
                long end = arrived.awaitWindow(from, min, max);
                if (end < 0) {
                    if (store && acknowledgedBytes() == 0 && from == 0) {
                        send(session, file, 0, 0, true); // an empty file still creates (or truncates) it
                    }
                    return;
                }
                for (ByteRange missing : missing(from, end)) {
                    boolean first = store && acknowledgedBytes() == 0;
                    if (first && missing.start() != 0) {
                        missing = new ByteRange(0, missing.end()); // STOR sends from byte 0
                    }
                    send(session, file, missing.start(), missing.end(), first);
                }
                from = end;
            }
        }
    }

    /** @return the parts of {@code [from, end)} the child has not acknowledged */
    private synchronized List<ByteRange> missing(long from, long end) {
        List<ByteRange> gaps = new ArrayList<>();
        for (ByteRange gap : ByteRange.missing(ByteRange.merge(acknowledged), end)) {
            if (gap.end() > from) {
                gaps.add(new ByteRange(Math.max(from, gap.start()), gap.end()));
            }
        }
        // what was acknowledged before a restart is behind "from" only on the first pass
        return gaps;
    }

    private void send(GridFtpSession session, FileChannel file, long start, long end, boolean first)
            throws IOException {
        DataSource window = DataSource.ofFile(file, base + start, end - start);
        TransferListener markers = new TransferListener() {
            @Override
            public void onRestartMarker(String ranges) {
                List<ByteRange> shifted = new ArrayList<>();
                for (ByteRange r : ByteRange.parseList(ranges)) {
                    shifted.add(new ByteRange(start + r.start(), start + r.end()));
                }
                acknowledge(shifted);
            }
        };
        session.upload(window, path, first ? -1 : base + start, TransferOptions.extendedBlock(parallelism), markers);
        acknowledge(List.of(new ByteRange(start, end)));
    }

    private synchronized void acknowledge(List<ByteRange> ranges) {
        acknowledged.addAll(ranges);
        List<ByteRange> merged = ByteRange.merge(acknowledged);
        acknowledged.clear();
        acknowledged.addAll(merged);
    }

    /**
     * How long a failing branch is retried: for {@code retryFor} from its first failure, and again
     * from each later failure that finds the child past the most it ever acknowledged (the retries
     * brought it on, so a child that fails again hours later gets its own retries, while one that
     * keeps failing at the same point does not get them forever).
     */
    static final class RetryWindow {
        private final Duration retryFor;
        private Instant giveUp;
        private long most = -1;

        /** @param retryFor how long a failure is retried */
        RetryWindow(Duration retryFor) {
            this.retryFor = retryFor;
        }

        /**
         * @param now when the branch failed
         * @param acknowledged bytes the child acknowledged then
         * @return true to retry, false to give up
         */
        boolean retry(Instant now, long acknowledged) {
            if (giveUp == null || acknowledged > most) {
                giveUp = now.plus(retryFor);
                most = Math.max(most, acknowledged);
            }
            return !now.isAfter(giveUp);
        }
    }

    private void pause() throws InterruptedIOException {
        try {
            Thread.sleep(policy.retryPause().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while retrying " + destination());
        }
    }
}
