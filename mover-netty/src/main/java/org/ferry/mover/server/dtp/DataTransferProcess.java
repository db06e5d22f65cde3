package org.ferry.mover.server.dtp;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import org.ferry.mover.data.PassiveListener;

/**
 * One data transfer process (DTP) as the PI sees it (SC'05 paper, section 5: the DTP "handles the
 * accessing of the actual data and its movement via the data channel protocol"), whether in the
 * PI's process ({@link LocalDtp}) or on a data node ({@link RemoteDtp}). Every operation is one
 * stripe of a MODE E transfer (GFD.020 "Extended Block Mode"). Thread-safe; shared by all sessions.
 * Futures fail with {@link DtpException} carrying the FTP reply code to answer; cancelling a
 * transfer future aborts it on the DTP (ABOR).
 */
public interface DataTransferProcess extends AutoCloseable {

    /** @return a short name for logs and status, e.g. {@code local} or {@code 127.0.0.1:7001} */
    String name();

    /**
     * Opens a passive data listener (one stripe of SPAS).
     *
     * @param announce the address the PI would announce for a local listener; a data node binds its
     *     own configured address instead
     * @return completes with the bound listener; closing it closes it on the DTP
     * @throws IOException only for a local DTP that cannot bind; remote failures fail the future
     */
    CompletableFuture<PassiveListener> listen(InetAddress announce) throws IOException;

    /**
     * Receives one stripe on {@code listener} into the file at {@code path}, every MODE E block
     * written at its offset, until the stripe's EOF and all its EODs arrived.
     *
     * @param listener a listener from this DTP's {@link #listen}
     * @param path virtual path; the PI has created or truncated the file
     * @param baseOffset file offset of the transfer's byte 0: 0 for STOR, the old size for APPE
     * @param progress told about bytes and ranges (relative to {@code baseOffset}) as they arrive
     * @return completes with the stripe's bytes
     */
    CompletableFuture<Long> receive(PassiveListener listener, String path, long baseOffset, StripeProgress progress);

    /**
     * Sends one stripe of a file.
     *
     * @param request what to send where
     * @param progress told about bytes as they are written
     * @return completes with the stripe's bytes
     */
    CompletableFuture<Long> send(StripeSendRequest request, StripeProgress progress);

    /** @return bytes this DTP has moved in finished transfers since it started, both directions */
    long bytesTransferred();

    /** Releases connections to the DTP; running transfers fail. Never throws. */
    @Override
    void close();
}
