package org.ferry.mover.server.dtp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.stripe.StripeLayout;

/**
 * Several DTPs driven as the stripes of one transfer, the Globus striped server's data side (SC'05
 * paper, section 5: "one server PI on the head node of a cluster and a DTP on all other nodes").
 * Receiving: one listener per DTP (SPAS), each DTP writes what arrives on its listener. Sending to
 * {@code R} receiver addresses (SPOR) from {@code D} DTPs: {@code L = max(R, D)} stripes in the
 * {@code Blocked} layout, stripe {@code k} sent by DTP {@code k mod D} to address {@code k mod R}.
 * Every receiver address gets exactly one EOF (GFD.020 "Extended Block Mode", "each SPAS stripe
 * receives exactly one EOF"): when several stripes share an address, the first of them announces
 * the EOD count of all their connections and the others send only EODs. Thread-safe; owns its DTPs.
 */
public final class StripedDtp implements AutoCloseable {

    /** How long a DTP may take to open a listener, in seconds. */
    public static final int LISTEN_TIMEOUT_SECONDS = 15;

    private final List<DataTransferProcess> dtps;
    private final boolean remote;

    /**
     * @param dtps the DTPs, at least one, in stripe order
     * @throws IllegalArgumentException if empty
     */
    public StripedDtp(List<? extends DataTransferProcess> dtps) {
        if (dtps.isEmpty()) {
            throw new IllegalArgumentException("at least one DTP");
        }
        this.dtps = List.copyOf(dtps);
        this.remote = this.dtps.stream().anyMatch(d -> !(d instanceof LocalDtp));
    }

    /** @return the DTPs, in stripe order */
    public List<DataTransferProcess> dtps() {
        return dtps;
    }

    /** @return true when the DTPs are data nodes rather than this process */
    public boolean remote() {
        return remote; // asked by every RETR: worked out once
    }

    /**
     * Opens one listener per DTP (SPAS). Blocks up to {@value #LISTEN_TIMEOUT_SECONDS} s per DTP.
     *
     * @param announce the address a local DTP binds and announces
     * @return the listeners; if one fails, those already open are closed
     * @throws DtpException 425 if a DTP cannot listen
     */
    public StripedPassiveListener listen(InetAddress announce) throws DtpException {
        List<PassiveListener> listeners = new ArrayList<>();
        try {
            for (DataTransferProcess dtp : dtps) {
                listeners.add(dtp.listen(announce, null).get(LISTEN_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            return new StripedPassiveListener(listeners, dtps);
        } catch (IOException | ExecutionException | TimeoutException e) {
            listeners.forEach(PassiveListener::close);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new DtpException(425, "Can't open passive data listener: " + cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            listeners.forEach(PassiveListener::close);
            throw new DtpException(426, "Command Aborted.");
        }
    }

    /**
     * Opens a listener on one DTP only (PASV on a head node: a non-striped receive still runs on a
     * data node, not in the PI).
     *
     * @param index the DTP, taken modulo the number of DTPs
     * @param announce the address a local DTP binds and announces
     * @return a one-stripe listener
     * @throws DtpException 425 if the DTP cannot listen
     */
    public StripedPassiveListener listenOn(int index, InetAddress announce) throws DtpException {
        DataTransferProcess one = dtps.get(Math.floorMod(index, dtps.size()));
        try {
            return new StripedPassiveListener(
                    List.of(one.listen(announce, null).get(LISTEN_TIMEOUT_SECONDS, TimeUnit.SECONDS)), List.of(one));
        } catch (IOException | ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new DtpException(425, "Can't open passive data listener: " + cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DtpException(426, "Command Aborted.");
        }
    }

    /**
     * Receives on every stripe of a SPAS listener into one file.
     *
     * @param listener from {@link #listen}
     * @param path virtual path, already created or truncated by the PI
     * @param baseOffset file offset of the transfer's byte 0 (0 for STOR, the old size for APPE)
     * @param progress per-stripe progress
     * @return completes with the total bytes once every stripe completed; cancel to abort all
     */
    public CompletableFuture<Long> receive(
            StripedPassiveListener listener, String path, long baseOffset, StripedProgress progress) {
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (int i = 0; i < listener.stripes().size(); i++) {
            parts.add(listener.dtps()
                    .get(i)
                    .receive(
                            new StripeReceiveRequest(listener.stripes().get(i), path, baseOffset), progress.stripe(i)));
        }
        return all(parts);
    }

    /**
     * Plans a striped send; see the class comment.
     *
     * @param path virtual path
     * @param offset first file byte (REST)
     * @param length bytes to send
     * @param blockSizeBytes layout block size
     * @param targets receiver addresses (SPOR, or one PORT address)
     * @param parallelism connections per stripe
     * @return one request per stripe; request {@code k} runs on DTP {@code k mod D}
     */
    public List<StripeSendRequest> plan(
            String path,
            long offset,
            long length,
            int blockSizeBytes,
            List<InetSocketAddress> targets,
            int parallelism) {
        int receivers = targets.size();
        int stripes = Math.max(receivers, dtps.size());
        StripeLayout layout = new StripeLayout(blockSizeBytes, stripes);
        List<StripeSendRequest> requests = new ArrayList<>();
        for (int k = 0; k < stripes; k++) {
            int target = k % receivers;
            // stripes target, target + R, target + 2R, ... share this address; the first announces them all
            int sharing = (stripes - 1 - target) / receivers + 1;
            long eofCount = k < receivers ? (long) sharing * parallelism : 0;
            requests.add(
                    new StripeSendRequest(path, offset, length, layout, k, targets.get(target), parallelism, eofCount));
        }
        return requests;
    }

    /**
     * Sends a file range striped over the DTPs ({@link #plan}).
     *
     * @param requests from {@link #plan}
     * @param progress per-stripe progress
     * @return completes with the total bytes once every stripe completed; cancel to abort all
     */
    public CompletableFuture<Long> send(List<StripeSendRequest> requests, StripedProgress progress) {
        List<CompletableFuture<Long>> parts = new ArrayList<>();
        for (StripeSendRequest request : requests) {
            int k = request.stripeIndex();
            parts.add(dtps.get(k % dtps.size()).send(request, progress.stripe(k)));
        }
        return all(parts);
    }

    /** Combines stripe futures: the sum on success; the first failure fails all; cancel cancels all. */
    private static CompletableFuture<Long> all(List<CompletableFuture<Long>> parts) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        for (CompletableFuture<Long> part : parts) {
            part.whenComplete((bytes, error) -> {
                if (error != null) {
                    result.completeExceptionally(error);
                } else if (parts.stream().allMatch(p -> p.isDone() && !p.isCompletedExceptionally())) {
                    result.complete(
                            parts.stream().mapToLong(CompletableFuture::join).sum());
                }
            });
        }
        // a failed or aborted stripe stops the others: a half-striped file is no use anyway
        result.whenComplete((bytes, error) -> {
            if (error != null) {
                parts.forEach(p -> p.cancel(true));
            }
        });
        return result;
    }

    /** Closes every DTP (links to data nodes). */
    @Override
    public void close() {
        dtps.forEach(DataTransferProcess::close);
    }
}
