package org.ferry.mover.server.dtp;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.ferry.mover.stripe.StripeLayout;

/**
 * One stripe of a striped send: the blocks of stripe {@code stripeIndex} of the file range
 * {@code [offset, offset + length)} under {@code layout}, to one receiver address.
 *
 * @param path virtual path of the file
 * @param offset first file byte of the range (the REST offset), {@code >= 0}
 * @param length bytes in the range, {@code >= 0}
 * @param layout block size and stripe count ({@code OPTS RETR StripeLayout=Blocked;BlockSize=n;})
 * @param stripeIndex the stripe, {@code 0 .. layout.stripeCount()-1}
 * @param target the receiver's listener (one SPOR entry)
 * @param parallelism MODE E connections for this stripe, 1..64
 * @param eofCount EOD count for this stripe's EOF header; 0 sends no EOF (another stripe to the same
 *     receiver announces the combined count, so that each receiver gets exactly one EOF,
 *     GFD.020 "Extended Block Mode")
 */
public record StripeSendRequest(
        String path,
        long offset,
        long length,
        StripeLayout layout,
        int stripeIndex,
        InetSocketAddress target,
        int parallelism,
        long eofCount)
        implements SendRequest {

    /** @throws IllegalArgumentException if a number is out of range */
    public StripeSendRequest {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(target, "target");
        if (offset < 0 || length < 0 || eofCount < 0) {
            throw new IllegalArgumentException("negative offset, length or EOF count");
        }
        if (stripeIndex < 0 || stripeIndex >= layout.stripeCount()) {
            throw new IllegalArgumentException("stripe index " + stripeIndex + " outside the layout");
        }
        if (parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("parallelism must be 1..64, was " + parallelism);
        }
    }
}
