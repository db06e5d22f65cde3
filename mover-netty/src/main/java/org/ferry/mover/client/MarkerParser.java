package org.ferry.mover.client;

import java.util.HashMap;
import java.util.Map;
import org.ferry.mover.protocol.FtpReply;

/**
 * Reads the markers a receiving GridFTP server sends during a transfer (GFD.020 "Restarting"; GFD.020 "Performance Monitoring"): 112 performance markers ({@code " Stripe Index: n"},
 * {@code " Stripe Bytes Transferred: n"}, cumulative per stripe) and 111 restart markers
 * ({@code "111 Range Marker a-b,c-d"}), and forwards them to a {@link TransferListener}. One
 * instance per transfer; used by one thread.
 */
final class MarkerParser {

    private final TransferListener listener;
    private final Map<String, Long> stripeBytes = new HashMap<>();
    private long totalBytes = -1;

    MarkerParser(TransferListener listener) {
        this.listener = listener;
    }

    /** Handles one preliminary reply; ignores everything but 111 and 112. */
    void accept(FtpReply reply) {
        if (reply.code() == 112) {
            perfMarker(reply);
        } else if (reply.code() == 111) {
            String text = reply.firstLineText();
            int at = text.indexOf("Range Marker");
            if (at >= 0) {
                listener.onRestartMarker(
                        text.substring(at + "Range Marker".length()).trim());
            }
        }
    }

    private void perfMarker(FtpReply reply) {
        String stripe = "0";
        Long bytes = null;
        for (String line : reply.lines()) {
            String l = line.trim();
            if (l.startsWith("Stripe Index:")) {
                stripe = l.substring("Stripe Index:".length()).trim();
            } else if (l.startsWith("Stripe Bytes Transferred:")) {
                try {
                    bytes = Long.parseLong(
                            l.substring("Stripe Bytes Transferred:".length()).trim());
                } catch (NumberFormatException e) {
                    return; // a marker we cannot read carries no progress
                }
            }
        }
        if (bytes != null) {
            stripeBytes.put(stripe, bytes);
            totalBytes =
                    stripeBytes.values().stream().mapToLong(Long::longValue).sum();
            listener.onProgress(totalBytes);
        }
    }

    /** The receiving side answered 125/150: passed on as {@link TransferListener#onReceiveStarted}. */
    void receiveStarted() {
        listener.onReceiveStarted();
    }

    /** @return bytes reported by the latest performance markers, -1 if none came */
    long totalBytes() {
        return totalBytes;
    }
}
