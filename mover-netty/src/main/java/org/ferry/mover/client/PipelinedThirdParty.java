package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.protocol.TarModule;

/**
 * A third-party batch in MODE E with pipelining (GridFTP pipelining, Bresnahan et al., TeraGrid
 * 2007): up to {@code depth} files in flight over the pair's cached data connections, the
 * destination's command first as globus-url-copy sends them. Small files travel as tar streams when
 * both servers offer the TAR module ({@link TarBatchPlan}); when a tar step fails, what is left goes
 * file by file so the file at fault gets its own error.
 */
final class PipelinedThirdParty {

    /** How long a failed batch waits for the replies to its remaining pipelined commands. */
    private static final Duration DRAIN_QUIET = Duration.ofSeconds(5);
    /** How long the destination may take to fail a step on its own after the source refused it. */
    private static final Duration SINK_ANSWER_WAIT = Duration.ofMillis(300);

    private final SessionControl source;
    private final SessionControl destination;
    private final ThirdPartyTransfer pair;

    /**
     * @param source the sending server's session
     * @param destination the receiving server's session
     */
    PipelinedThirdParty(SessionControl source, SessionControl destination) {
        this.source = source;
        this.destination = destination;
        this.pair = new ThirdPartyTransfer(source, destination);
    }

    /** Steps both sides finished so far, and the bytes of their files. */
    private static final class Progress {
        int completedSteps;
        long moved;
    }

    /**
     * @param options MODE E options (stream mode is not pipelined)
     * @param depth files in flight, 1..1000
     * @return bytes moved; each file is reported to {@code listener} as both sides finish it
     * @throws NoSuchFileException if a source file is missing (before anything moves)
     * @throws GridFtpReplyException for the first file a server refused (on a tie the permanent
     *     reply); the files before it are done and reported
     * @throws IOException on a broken connection or a timeout
     */
    long run(List<FilePair> files, TransferOptions options, int depth, TransferListener listener) throws IOException {
        destination.protectFor(options, source);
        source.protectFor(options, destination);
        long[] sizes = sizes(files);
        boolean tar = options.tarStreams() && source.offers(TarModule.FEATURE) && destination.offers(TarModule.FEATURE);
        List<TarBatchPlan.Step> steps = TarBatchPlan.steps(files, sizes, tar);
        Progress progress = new Progress();
        try {
            return pipeline(options, steps, files, sizes, depth, listener, progress);
        } catch (GridFtpReplyException e) {
            if (progress.completedSteps >= steps.size()
                    || !steps.get(progress.completedSteps).isTar()) {
                throw e;
            }
            // A tar step failed (a file missing or unreadable, a server limit): send what is left
            // file by file, so the file at fault gets its own error and the files before it move.
            List<Integer> left = new ArrayList<>();
            for (TarBatchPlan.Step step : steps.subList(progress.completedSteps, steps.size())) {
                left.addAll(step.files());
            }
            long[] leftSizes = new long[left.size()];
            for (int i = 0; i < left.size(); i++) {
                leftSizes[i] = sizes[left.get(i)];
            }
            List<FilePair> leftFiles = left.stream().map(files::get).toList();
            List<TarBatchPlan.Step> singles = TarBatchPlan.steps(leftFiles, leftSizes, false);
            return progress.moved + pipeline(options, singles, leftFiles, leftSizes, depth, listener, new Progress());
        }
    }

    /**
     * Runs pipelined steps; {@code progress} counts the steps both sides finished, also on failure.
     *
     * @return bytes moved
     */
    private long pipeline(
            TransferOptions options,
            List<TarBatchPlan.Step> steps,
            List<FilePair> files,
            long[] sizes,
            int depth,
            TransferListener listener,
            Progress progress)
            throws IOException {
        destination.setMode(options.mode());
        source.setMode(options.mode());
        boolean reuse = pair.cachedBetweenPair();
        InetSocketAddress destinationAddress = reuse ? null : destination.pasv();
        source.setRetrOptions(SessionControl.parallelism(options.parallelism()) + "markers="
                + ThirdPartyTransfer.SOURCE_MARKER_SECONDS + ";");
        if (!reuse) {
            source.port(destinationAddress);
        }
        MarkerParser markers = new MarkerParser(listener);
        PipelinedReplies sourceReplies = new PipelinedReplies(source.channel(), markers);
        PipelinedReplies sinkReplies = new PipelinedReplies(destination.channel(), markers);
        StepCompletionGate gate = new StepCompletionGate();
        // refill when half the pipeline has drained: one wake-up and one write per side for
        // several files, while the other half keeps both servers busy
        int refillSteps = Math.max(1, depth / 2);
        try (ReplyWaiter waiter = new ReplyWaiter(source.channel().replyTimeout())
                .watch(source.channel(), gate.source())
                .watch(destination.channel(), gate.sink())) {
            while (progress.completedSteps < steps.size()) {
                int inFlight = sinkReplies.sent() - progress.completedSteps;
                if (sinkReplies.sent() < steps.size() && inFlight <= depth - refillSteps) {
                    while (sinkReplies.sent() < steps.size() && sinkReplies.sent() - progress.completedSteps < depth) {
                        TarBatchPlan.Step step = steps.get(sinkReplies.sent());
                        sinkReplies.queue(step.destinationCommand()); // the receiver first, as globus-url-copy
                        sourceReplies.queue(step.sourceCommand());
                        if (step.isTar()) {
                            source.countTarStep();
                        }
                    }
                    sinkReplies.flush();
                    sourceReplies.flush();
                }
                boolean heard = sourceReplies.pollAll() | sinkReplies.pollAll();
                if (sourceReplies.failure() != null || sinkReplies.failure() != null) {
                    settleFailure(sourceReplies, sinkReplies);
                    int failed = Math.min(sourceReplies.failureIndex(), sinkReplies.failureIndex());
                    int bothDone = Math.min(sourceReplies.finals(), sinkReplies.finals());
                    report(steps, files, sizes, Math.min(failed, bothDone), listener, progress);
                    throw PipelinedReplies.firstFailure(sourceReplies, sinkReplies);
                }
                report(steps, files, sizes, Math.min(sourceReplies.finals(), sinkReplies.finals()), listener, progress);
                if (heard) {
                    waiter.alive();
                }
                waiter.checkAlive("pipelined third-party transfer");
                int wakeAt =
                        Math.min(steps.size(), Math.min(sinkReplies.sent(), progress.completedSteps + refillSteps));
                if (!heard && !gate.wakeAt(wakeAt)) {
                    waiter.pause();
                }
            }
        } catch (IOException | RuntimeException e) {
            sourceReplies.drain(DRAIN_QUIET);
            sinkReplies.drain(DRAIN_QUIET);
            pair.dropPair();
            reportUnfinished(steps, files, sinkReplies, listener, progress);
            throw e;
        }
        pair.cachePair(true);
        return progress.moved;
    }

    /**
     * After one side failed a step: lets the other side answer for the same step before choosing
     * whose failure counts, and ABORs a destination left waiting for data that will not come.
     */
    private static void settleFailure(PipelinedReplies sourceReplies, PipelinedReplies sinkReplies) throws IOException {
        int first = Math.min(sourceReplies.failureIndex(), sinkReplies.failureIndex());
        PipelinedReplies other = sourceReplies.failure() != null ? sinkReplies : sourceReplies;
        if (other == sinkReplies) {
            awaitFinals(sinkReplies, first, DRAIN_QUIET); // the steps before the failed one
            if (!awaitFinals(sinkReplies, first + 1, SINK_ANSWER_WAIT) && sinkReplies.finals() == first) {
                // The source refused the step before sending: with fresh data connections the
                // destination would wait for data until its idle timeout. Only now is the step
                // surely the one running there, so ABOR cannot hit an earlier file.
                sinkReplies.abort();
            }
        }
        awaitFinals(other, first + 1, DRAIN_QUIET);
    }

    /**
     * Reads {@code replies} until it has {@code finals} final replies or a failure, at most {@code wait}
     * without a final reply.
     *
     * @return true if it got there
     */
    private static boolean awaitFinals(PipelinedReplies replies, int finals, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (replies.finals() < finals && replies.failure() == null) {
            int before = replies.finals();
            if (System.nanoTime() > deadline) {
                return false;
            }
            replies.poll(20);
            if (replies.finals() > before) {
                deadline = System.nanoTime() + wait.toNanos();
            }
        }
        return replies.finals() >= finals;
    }

    /**
     * After a failure: reports the files of the steps not completed whose destination the receiving
     * server may have opened ({@link TransferListener#onFileUnfinished}).
     */
    private static void reportUnfinished(
            List<TarBatchPlan.Step> steps,
            List<FilePair> files,
            PipelinedReplies sinkReplies,
            TransferListener listener,
            Progress progress) {
        for (int step = progress.completedSteps; step < steps.size(); step++) {
            if (sinkReplies.mayHaveOpened(step)) {
                boolean tar = steps.get(step).isTar(); // a tar stream writes each file in order
                for (int file : steps.get(step).files()) {
                    listener.onFileUnfinished(files.get(file), tar);
                }
            }
        }
    }

    /** Reports the files of the steps up to {@code upTo} (exclusive) as completed. */
    private static void report(
            List<TarBatchPlan.Step> steps,
            List<FilePair> files,
            long[] sizes,
            int upTo,
            TransferListener listener,
            Progress progress) {
        while (progress.completedSteps < upTo) {
            for (int file : steps.get(progress.completedSteps++).files()) {
                listener.onFileCompleted(files.get(file), sizes[file]);
                progress.moved += sizes[file];
            }
        }
    }

    /**
     * The size of every source file: as the pair carries it, else by SIZE, pipelined (one round
     * trip, {@link FileQueries#sizes}): fails early on a missing file.
     */
    private long[] sizes(List<FilePair> files) throws IOException {
        long[] sizes = new long[files.size()];
        List<Integer> asked = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            sizes[i] = files.get(i).sizeBytes();
            if (sizes[i] < 0) {
                asked.add(i);
                paths.add(files.get(i).source());
            }
        }
        long[] answered = FileQueries.sizes(source.channel(), paths);
        for (int k = 0; k < answered.length; k++) {
            if (answered[k] < 0) {
                throw new NoSuchFileException(paths.get(k), null, "550 to SIZE");
            }
            sizes[asked.get(k)] = answered[k];
        }
        return sizes;
    }
}
