package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.ferry.mover.protocol.ClientCommands;

/**
 * A striped third-party transfer (GFD.020 "SPAS"/"SPOR", "Extended Block Mode" with
 * {@code StripeLayout=Blocked}, as globus-url-copy {@code -stripe}): the destination's stripes
 * listen (MODE E, SPAS, STOR), then the source's stripes connect to them (MODE E, OPTS RETR with the
 * layout, SPOR, RETR) and send blocks round-robin.
 */
final class StripedTransfer {

    private final SessionControl source;
    private final SessionControl destination;

    /**
     * @param source the sending server's session
     * @param destination the receiving server's session
     */
    StripedTransfer(SessionControl source, SessionControl destination) {
        this.source = source;
        this.destination = destination;
    }

    /**
     * @param parallelism data connections per stripe pair, 1..64
     * @param blockSizeBytes bytes per stripe block, 1..64 MiB
     * @return the file's size, at least the bytes the markers reported
     * @throws IllegalArgumentException for parallelism or block size out of range
     * @throws java.nio.file.NoSuchFileException if the source has no such file
     * @throws GridFtpReplyException if either server refuses or fails the transfer
     * @throws IOException on a broken connection or a timeout (ABOR sent)
     */
    long run(String sourcePath, String destinationPath, int parallelism, int blockSizeBytes, TransferListener listener)
            throws IOException {
        if (parallelism < 1 || parallelism > 64 || blockSizeBytes < 1 || blockSizeBytes > (64 << 20)) {
            throw new IllegalArgumentException(
                    "parallelism 1..64 and block size 1..64 MiB, were " + parallelism + " and " + blockSizeBytes);
        }
        long size = source.size(sourcePath); // fails early with NoSuchFileException
        destination.setMode(TransferOptions.Mode.EXTENDED_BLOCK);
        List<InetSocketAddress> stripes = destination.spas();
        String storCommand = ClientCommands.stor(destinationPath);
        destination.channel().send(storCommand);
        String retrCommand = ClientCommands.retr(sourcePath);
        try {
            source.setMode(TransferOptions.Mode.EXTENDED_BLOCK);
            source.setRetrOptions(SessionControl.parallelism(parallelism) + "StripeLayout=Blocked;BlockSize="
                    + blockSizeBytes + ";markers=" + ThirdPartyTransfer.SOURCE_MARKER_SECONDS + ";");
            source.spor(stripes);
        } catch (IOException | RuntimeException e) {
            ReplyWaiter.abort(destination.channel());
            throw e;
        }
        source.channel().send(retrCommand);
        MarkerParser markers = new MarkerParser(listener);
        new ThirdPartyWait(source.channel(), retrCommand, destination.channel(), storCommand, markers).await();
        return Math.max(size, markers.totalBytes());
    }
}
