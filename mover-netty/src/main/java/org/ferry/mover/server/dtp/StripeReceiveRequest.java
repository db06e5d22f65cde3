package org.ferry.mover.server.dtp;

import java.util.Objects;
import org.ferry.mover.data.PassiveListener;

/**
 * One stripe of a striped receive (GFD.020 "SPAS"): every MODE E block that arrives on the stripe's
 * listener is written at its offset into the file at {@code path}, until the stripe's EOF and all
 * its EODs arrived.
 *
 * @param listener a listener from the same DTP's {@link DataTransferProcess#listen}
 * @param path virtual path; the PI has created or truncated the file
 * @param baseOffset file offset of the transfer's byte 0: 0 for STOR, the old size for APPE
 */
public record StripeReceiveRequest(PassiveListener listener, String path, long baseOffset) implements ReceiveRequest {

    /** @throws IllegalArgumentException for a negative offset */
    public StripeReceiveRequest {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(path, "path");
        if (baseOffset < 0) {
            throw new IllegalArgumentException("negative base offset " + baseOffset);
        }
    }
}
