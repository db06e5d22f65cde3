package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.ClientCommands;
import org.ferry.mover.protocol.FtpReply;

/**
 * One file from one server to another, this client driving both control channels (RFC 959 section
 * 5.2, GFD.020 "Extended Block Mode"): the destination first (MODE, PASV, REST, STOR), then the
 * source (MODE, OPTS RETR, PORT, REST, RETR), as globus-url-copy orders them. A whole file, a
 * window (ERET P / ESTO A, GFD.020 "ERET"/"ESTO"), or a restart from the ranges the destination
 * already has (REST, GFD.020 "Restarting"). In MODE E the pair's data connections stay cached, so
 * the next file between the same pair needs no PASV and no PORT (the servers answer 125).
 */
final class ThirdPartyTransfer {

    /**
     * Files from this size on are announced with ALLO before STOR (one round trip, small beside
     * the file's own time), so that a destination that cannot hold one refuses it at once.
     */
    static final long ALLOCATE_FROM_BYTES = 64L << 20;

    /** Period of the performance markers asked of the source, in seconds. */
    static final int SOURCE_MARKER_SECONDS = 5;

    private final SessionControl source;
    private final SessionControl destination;

    /**
     * @param source the sending server's session
     * @param destination the receiving server's session
     */
    ThirdPartyTransfer(SessionControl source, SessionControl destination) {
        this.source = source;
        this.destination = destination;
    }

    /**
     * @param done ranges the destination already has (restart markers); empty for a fresh transfer
     * @param offset first byte of a window, or -1 for the whole file
     * @param length bytes of the window; ignored for the whole file
     * @return the bytes of the file (or window), at least those the markers reported
     * @throws java.nio.file.NoSuchFileException if the source has no such file
     * @throws GridFtpReplyException if either server refuses or fails the transfer
     * @throws IOException on a broken connection or a timeout (ABOR sent)
     */
    long run(
            String sourcePath,
            String destinationPath,
            TransferOptions options,
            List<ByteRange> done,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        long size = source.size(sourcePath); // fails early with NoSuchFileException
        destination.protectFor(options, source); // each server authenticates with its own delegated credential
        source.protectFor(options, destination);
        if (offset >= 0) {
            size = Math.max(0, Math.min(length, size - offset));
        }
        boolean modeE = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK;
        // asked before STOR: FEAT (if not known yet) cannot go while the destination waits for data
        boolean plainDestination = !modeE && !destination.offers("PARALLEL");
        destination.setMode(options.mode());
        source.setMode(options.mode());
        if (offset < 0 && size >= ALLOCATE_FROM_BYTES) {
            destination.allocate(size); // 552 here: the file cannot fit, and nothing was sent
        }
        boolean reuse = modeE && cachedBetweenPair();
        // stream mode into a server that dials out (a Ferry Connect agent) from one that does not:
        // the source listens and the destination connects, so the data does not take the relay
        boolean sourcePassive = !modeE
                && destination.offers(org.ferry.mover.protocol.DialOut.FEATURE)
                && !source.offers(org.ferry.mover.protocol.DialOut.FEATURE);
        InetSocketAddress destinationAddress = reuse || sourcePassive ? null : destination.pasv();
        if (sourcePassive) {
            destination.port(source.pasv());
        }
        String rest = ClientCommands.rest(done, modeE);
        if (rest != null) {
            destination.rest(rest); // REST goes last, right before the transfer verb, on both sides
        }
        String storCommand = offset >= 0
                ? ClientCommands.estoAdjusted(offset, destinationPath)
                : ClientCommands.stor(destinationPath);
        destination.channel().send(storCommand);
        String retrCommand =
                offset >= 0 ? ClientCommands.eretPartial(offset, length, sourcePath) : ClientCommands.retr(sourcePath);
        try {
            // markers: the sending server then reports progress (112) even in stream mode, which
            // keeps the inactivity timeout from firing during long third-party transfers
            int streams = modeE ? options.parallelism() : 1;
            if (modeE || source.offers("PARALLEL")) { // a plain FTP source knows no OPTS RETR (GFD.020)
                source.setRetrOptions(SessionControl.parallelism(streams) + "markers=" + SOURCE_MARKER_SECONDS + ";");
            }
            if (!reuse && !sourcePassive) {
                source.port(destinationAddress);
            }
            if (rest != null) {
                source.rest(rest);
            }
        } catch (IOException | RuntimeException e) {
            ReplyWaiter.abort(destination.channel());
            destination.dropData();
            throw e;
        }
        MarkerParser markers = new MarkerParser(listener);
        try {
            if (plainDestination) {
                awaitReceiving(storCommand, markers);
            }
        } catch (IOException | RuntimeException e) {
            source.dropData();
            destination.dropData();
            throw e;
        }
        source.channel().send(retrCommand);
        try {
            new ThirdPartyWait(source.channel(), retrCommand, destination.channel(), storCommand, markers).await();
        } catch (IOException | RuntimeException e) {
            source.dropData();
            destination.dropData();
            throw e;
        }
        cachePair(modeE);
        return Math.max(size, markers.totalBytes());
    }

    /**
     * Waits for a plain FTP destination's 125/150 to STOR before the source is told to send
     * ({@link ReceiveStart}: a plain server may lose a small file whose data connection arrives
     * first, and the transfer hung until the reply timeout). One round trip per file, on plain FTP
     * destinations only.
     *
     * @throws GridFtpReplyException if the destination refuses STOR
     * @throws IOException on a timeout (ABOR sent) or a broken control connection
     */
    private void awaitReceiving(String storCommand, MarkerParser markers) throws IOException {
        FtpReply reply = ReceiveStart.await(destination.channel(), storCommand);
        if (reply.code() == 125 || reply.code() == 150) {
            markers.receiveStarted();
        }
        markers.accept(reply);
    }

    /** @return whether the two servers' data connections are cached from a transfer between them */
    boolean cachedBetweenPair() {
        return source.cachedFor(new DataUse.SendTo(destination))
                && destination.cachedFor(new DataUse.ReceiveFrom(source));
    }

    /** Records that the pair's connections are cached (MODE E) or gone (stream mode closes them). */
    void cachePair(boolean cached) {
        source.cachedFor(new DataUse.SendTo(destination), cached);
        destination.cachedFor(new DataUse.ReceiveFrom(source), cached);
    }

    /** Drops both sides' cached connections (after a failure, their state is unknown). */
    void dropPair() {
        source.dropData();
        destination.dropData();
    }
}
