package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.mover.data.DataSink;

/**
 * A {@link DataSink} that computes checksums of what it writes while it writes it, as long as the
 * bytes come in order from the transfer's first byte: stream mode (RFC 959 section 3.4.1) and MODE
 * E over one connection, whose blocks come in order (GFD.020 "Extended Block Mode"). The first
 * block that is not the next one (parallel MODE E connections deliver out of order) ends the
 * computation for this transfer: {@link #values} is then empty, and CKSM reads the file as it
 * would without this. No reorder window: holding blocks back would cost a copy of each and
 * memory per transfer, and would serialize the parallel connections' event loops on one digest.
 * Thread-safe: MODE E connections may write from several event loops at once.
 */
final class InflightChecksums implements DataSink {

    private final DataSink sink;
    private final Map<String, Checksums.Running> running = new LinkedHashMap<>();
    /** Bytes checksummed so far, from the transfer's first; guarded by this. */
    private long next;
    /** Set once a block came out of order or a write failed; read without the lock. */
    private volatile boolean abandoned;

    /**
     * @param sink where the bytes go, written first
     * @param algorithms canonical names ({@link Checksums#ALGORITHMS}) to compute; not empty
     */
    InflightChecksums(DataSink sink, Collection<String> algorithms) {
        this.sink = sink;
        for (String algorithm : algorithms) {
            running.put(algorithm, Checksums.start(algorithm));
        }
    }

    @Override
    public void write(ByteBuffer data, long offset) throws IOException {
        if (abandoned || !data.hasRemaining()) {
            sink.write(data, offset);
            return;
        }
        synchronized (this) {
            if (abandoned || offset != next) {
                abandoned = true;
                sink.write(data, offset);
                return;
            }
            ByteBuffer written = data.duplicate(); // the sink reads data to its limit
            try {
                sink.write(data, offset);
            } catch (IOException | RuntimeException e) {
                abandoned = true;
                throw e;
            }
            next += written.remaining();
            for (Checksums.Running checksum : running.values()) {
                checksum.update(written.duplicate());
            }
        }
    }

    /**
     * Ends the computation. Call once, after the last write.
     *
     * @param sizeBytes the size of the file the bytes went into, as it is now
     * @return the checksums by algorithm if they cover exactly the file's {@code sizeBytes} bytes from
     *     its start, in order; empty otherwise (out of order, a failed write, a file longer than the
     *     transfer)
     */
    synchronized Map<String, String> values(long sizeBytes) {
        if (abandoned || next != sizeBytes) {
            return Map.of();
        }
        abandoned = true; // hex() finishes a digest: once
        Map<String, String> values = new LinkedHashMap<>();
        running.forEach((algorithm, checksum) -> values.put(algorithm, checksum.hex()));
        return values;
    }
}
