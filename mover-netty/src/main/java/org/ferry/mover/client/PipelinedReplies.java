package org.ferry.mover.client;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.ferry.mover.protocol.FtpReply;

/**
 * The replies to pipelined transfer commands on one control channel (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)): the server answers them strictly in order, so the n-th final reply belongs to the n-th
 * command sent. Preliminary replies (150/125, 111/112 markers) go to a {@link MarkerParser}. The
 * first negative final reply is kept as the batch's failure. Used by one thread.
 */
final class PipelinedReplies {

    private final ControlChannel channel;
    private final List<String> commands = new ArrayList<>();
    private MarkerParser markers;
    private int finals;
    private GridFtpReplyException failure;
    private int failureIndex = Integer.MAX_VALUE;
    /** Commands the server answered with 125/150: it opened their file. */
    private final BitSet opened = new BitSet();
    /** The first command whose replies can no longer be told apart (after ABOR, or given up). */
    private int unknownFrom = Integer.MAX_VALUE;

    PipelinedReplies(ControlChannel channel, MarkerParser markers) {
        this.channel = channel;
        this.markers = markers;
    }

    /** Sends a transfer command without waiting for its reply. */
    void send(String command) {
        channel.send(command);
        commands.add(command);
    }

    /** Queues a transfer command; it goes out with the next {@link #flush()}. */
    void queue(String command) {
        channel.write(command);
        commands.add(command);
    }

    /** Sends the commands {@link #queue(String)} queued, in one write. */
    void flush() {
        channel.flush();
    }

    /** @return commands sent so far */
    int sent() {
        return commands.size();
    }

    /** @return final replies received so far (= commands answered) */
    int finals() {
        return finals;
    }

    /** @param value where markers of the following replies go */
    void markers(MarkerParser value) {
        markers = value;
    }

    /** @return the first negative final reply as an exception, or null */
    GridFtpReplyException failure() {
        return failure;
    }

    /** @return the index of the command that failed first, {@link Integer#MAX_VALUE} if none */
    int failureIndex() {
        return failureIndex;
    }

    /**
     * The earlier of two sides' failures: a file the receiver refused can look sent to the sender
     * (its blocks were in the socket buffers), which then fails on the next file.
     *
     * @return the failure of the lower command index (on a tie the permanent one), or null if
     *     neither failed
     */
    static GridFtpReplyException firstFailure(PipelinedReplies a, PipelinedReplies b) {
        if (a.failure == null) {
            return b.failure;
        }
        if (b.failure == null) {
            return a.failure;
        }
        if (a.failureIndex != b.failureIndex) {
            return a.failureIndex < b.failureIndex ? a.failure : b.failure;
        }
        // Both sides failed the same file: a permanent reply (5xx, e.g. the destination's 550) is the
        // cause, a transient one (426 from the other side's dropped data connection) its consequence.
        return a.failure.isTransient() && !b.failure.isTransient() ? b.failure : a.failure;
    }

    /**
     * Reads at most one reply.
     *
     * @param timeoutMillis how long to wait for it
     * @return true if a reply came
     * @throws IOException if the control channel broke
     */
    boolean poll(long timeoutMillis) throws IOException {
        FtpReply reply = channel.poll(timeoutMillis);
        if (reply == null) {
            return false;
        }
        if (reply.isPreliminary()) {
            if ((reply.code() == 125 || reply.code() == 150) && finals < commands.size()) {
                opened.set(finals); // replies come in order: it belongs to the first unanswered command
            }
            markers.accept(reply);
        } else if (finals < commands.size()) {
            String command = commands.get(finals++);
            if (!reply.isPositiveCompletion() && failure == null) {
                failure = new GridFtpReplyException(command, reply.code(), reply.text());
                failureIndex = finals - 1;
            }
        }
        return true;
    }

    /**
     * Reads every reply already queued, without waiting.
     *
     * @return true if any reply came
     * @throws IOException if the control channel broke
     */
    boolean pollAll() throws IOException {
        boolean heard = false;
        while (poll(0)) {
            heard = true;
        }
        return heard;
    }

    /**
     * After a failure on the other side: the command this side is running waits for data that will
     * not come, so ABOR it now (RFC 959 section 4.1.3) rather than let it wait for its idle timeout.
     * ABOR's own reply is counted as one more final reply; the session is failing anyway, so which
     * final answers which command no longer matters, only that all are read.
     */
    void abort() {
        unknownFrom = Math.min(unknownFrom, finals); // ABOR's own replies shift the count
        channel.send("ABOR");
        commands.add("ABOR");
    }

    /**
     * After a failure: reads replies until every command sent has its final reply, so the session
     * stays in step. If no final reply comes for {@code quiet} (a command waiting for data that will
     * never come; markers do not count, a waiting receiver keeps sending them), sends ABOR and gives
     * up; the session may then be out of step.
     *
     * @param quiet how long the wait for a final reply may last
     */
    void drain(Duration quiet) {
        try {
            long lastFinal = System.nanoTime();
            while (finals < commands.size()) {
                int before = finals;
                poll(50);
                if (finals > before) {
                    lastFinal = System.nanoTime();
                } else if (System.nanoTime() - lastFinal > quiet.toNanos()) {
                    unknownFrom = Math.min(unknownFrom, finals);
                    ReplyWaiter.abort(channel);
                    return;
                }
            }
        } catch (IOException e) {
            unknownFrom = Math.min(unknownFrom, finals); // the channel broke: nothing left to keep in step
        }
    }

    /**
     * @param index a command's index, in the order sent
     * @return whether the server may have opened that command's file: it answered it with 125/150,
     *     or was at it or past it when its replies could no longer be told apart (after {@link
     *     #abort}, or when {@link #drain} gave up); false for a command never sent
     */
    boolean mayHaveOpened(int index) {
        return index < commands.size()
                && !"ABOR".equals(commands.get(index))
                && (opened.get(index) || index >= unknownFrom);
    }
}
