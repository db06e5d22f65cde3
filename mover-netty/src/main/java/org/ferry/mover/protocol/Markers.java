package org.ferry.mover.protocol;

import java.util.List;

/**
 * Intermediate transfer replies of GridFTP (GFD.020; exact globus text in GFD.020 "Restarting"; GFD.020 "Performance Monitoring"). Stateless.
 */
public final class Markers {

    private Markers() {}

    /**
     * A performance marker for a single-stripe server.
     *
     * @param epochMillis time of the measurement
     * @param bytesTransferred cumulative bytes of this transfer
     * @return {@code 112-Perf Marker} ... {@code 112 End.}
     */
    public static FtpReply perf(long epochMillis, long bytesTransferred) {
        return perf(epochMillis, 0, 1, bytesTransferred);
    }

    /**
     * A performance marker of one stripe (GFD.020 "Performance Monitoring").
     *
     * @param epochMillis time of the measurement
     * @param stripeIndex the stripe, 0-based
     * @param stripeCount all stripes of the transfer
     * @param bytes cumulative bytes of that stripe
     * @return {@code 112-Perf Marker} ... {@code 112 End.}
     */
    public static FtpReply perf(long epochMillis, int stripeIndex, int stripeCount, long bytes) {
        String timestamp = (epochMillis / 1000) + "." + ((epochMillis % 1000) / 100);
        return FtpReply.multiline(
                112,
                "Perf Marker",
                List.of(
                        " Timestamp: " + timestamp,
                        " Stripe Index: " + stripeIndex,
                        " Stripe Bytes Transferred: " + bytes,
                        " Total Stripe Count: " + stripeCount),
                "End.");
    }

    /**
     * @param ranges ranges as rendered by {@link RangeTracker#drain()}
     * @return {@code 111 Range Marker a-b,...}
     */
    public static FtpReply range(String ranges) {
        return FtpReply.of(111, "Range Marker " + ranges);
    }
}
