package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;

/** Ferry's client side of the throughput benchmarks: one timed download per call. */
final class FerryTransfers {

    private FerryTransfers() {}

    /**
     * The outcome of one download.
     *
     * @param bytes bytes received
     * @param elapsedNanos from opening the control session to the end of the transfer
     */
    record Timed(long bytes, long elapsedNanos) {}

    /**
     * Opens a session, downloads {@code remotePath} into {@code localFile} (may be {@code /dev/null}),
     * and closes the session; the time includes the login, as a globus-url-copy run's does.
     */
    static Timed download(
            GridFtpClient client, String serverUrl, String remotePath, Path localFile, TransferOptions options)
            throws IOException {
        long start = System.nanoTime();
        long bytes;
        try (GridFtpSession session = client.open(GridFtpUrl.parse(serverUrl))) {
            bytes = session.download(remotePath, localFile, options, TransferListener.NONE);
        }
        return new Timed(bytes, System.nanoTime() - start);
    }

    /** @return {@code -p N} as globus-url-copy spells it, or nothing for stream mode */
    static String globusParallelism(TransferOptions options) {
        return options.mode() == TransferOptions.Mode.STREAM ? "" : "-p " + options.parallelism();
    }
}
