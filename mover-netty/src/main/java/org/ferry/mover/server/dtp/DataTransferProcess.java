package org.ferry.mover.server.dtp;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import org.ferry.mover.data.PassiveListener;

/**
 * One data transfer process (DTP) as the PI sees it (SC'05 paper, section 5: the DTP "handles the
 * accessing of the actual data and its movement via the data channel protocol"), whether in the
 * PI's process ({@link LocalDtp}) or on a data node ({@link RemoteDtp}). Every transfer a server
 * runs goes through this interface: a plain one is the one-stripe case, run whole by the DTP in the
 * server's process ({@link PlainSend}, {@link PlainReceive}); a striped one is one request per
 * stripe ({@link StripeSendRequest}, {@link StripeReceiveRequest}; GFD.020 "Extended Block Mode",
 * "SPAS", "SPOR"), which {@link StripedDtp} spreads over its DTPs. Thread-safe; shared by all
 * sessions. Futures fail with {@link DtpException} carrying the FTP reply code to answer (an
 * {@link IOException} of the data channels' for a plain transfer, which {@link DtpException#of}
 * maps); cancelling a transfer future aborts it on the DTP (ABOR).
 */
public interface DataTransferProcess extends AutoCloseable {

    /** @return a short name for logs and status, e.g. {@code local} or {@code 127.0.0.1:7001} */
    String name();

    /**
     * Opens a passive data listener: a session's PASV/EPSV on the DTP in the server's process, or
     * one stripe of SPAS on any DTP.
     *
     * @param announce the address the PI would announce for a local listener; a data node binds its
     *     own configured address instead
     * @param session for PASV/EPSV, the session whose buffers the listener takes and whose kept MODE E
     *     connections its accepted connections join ({@link PlainReceive}); null for a SPAS stripe,
     *     whose listener keeps the MODE E connections its receives leave open and closes them with
     *     itself (a data node takes null only)
     * @return completes with the bound listener; closing it closes it on the DTP
     * @throws IOException only for a local DTP that cannot bind; remote failures fail the future
     */
    CompletableFuture<PassiveListener> listen(InetAddress announce, SessionChannels session) throws IOException;

    /**
     * Sends a plain transfer whole, or one stripe of a striped one.
     *
     * @param request what to send where
     * @param progress told about bytes as they are written; may be null for a plain send without
     *     perf markers
     * @return completes with the bytes sent once all data, EODs and the EOF are written
     */
    CompletableFuture<Long> send(SendRequest request, TransferProgress progress);

    /**
     * Receives a plain transfer whole, or one stripe of a striped one: every MODE E block written at
     * its offset.
     *
     * @param request what to receive, and where to write it
     * @param progress told about bytes, and for a stripe the ranges written (relative to its base
     *     offset), as they arrive; may be null for a plain receive (which reports its ranges
     *     through its own sink)
     * @return completes with the bytes received
     */
    CompletableFuture<Long> receive(ReceiveRequest request, TransferProgress progress);

    /** @return bytes this DTP has moved in finished striped transfers since it started, both directions */
    long bytesTransferred();

    /** Releases connections to the DTP; running transfers fail. Never throws. */
    @Override
    void close();
}
