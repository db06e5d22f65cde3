package org.ferry.mover.client;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.protocol.ByteRange;

/**
 * A {@link TransferListener} that collects the restart markers ({@code 111 Range Marker a-b,...},
 * GFD.020 "Restarting") of a transfer, to resume it after a fault
 * with {@link GridFtpSession#resumeSendTo}. Every callback is passed on to a delegate. Thread-safe.
 */
public final class RestartMarkers implements TransferListener {

    private final TransferListener delegate;
    private final List<ByteRange> ranges = new ArrayList<>();

    /** Collects markers and forwards nothing else. */
    public RestartMarkers() {
        this(TransferListener.NONE);
    }

    /** @param delegate gets every callback too */
    public RestartMarkers(TransferListener delegate) {
        this.delegate = delegate;
    }

    /**
     * Adds ranges known to be done already (e.g. from an earlier attempt), as if a marker had said so.
     *
     * @param done byte ranges, end exclusive
     */
    public synchronized void addAll(List<ByteRange> done) {
        ranges.addAll(done);
    }

    /** @return the ranges committed by the receiver so far, merged and sorted */
    public synchronized List<ByteRange> ranges() {
        return ByteRange.merge(ranges);
    }

    /** @return bytes committed by the receiver so far (the union of all markers) */
    public long bytesCommitted() {
        return ranges().stream().mapToLong(ByteRange::length).sum();
    }

    @Override
    public void onRestartMarker(String markerRanges) {
        try {
            List<ByteRange> parsed = ByteRange.parseList(markerRanges);
            synchronized (this) {
                ranges.addAll(parsed);
            }
        } catch (IllegalArgumentException e) {
            // a marker we cannot read commits nothing; a restart then resends those bytes
        }
        delegate.onRestartMarker(markerRanges);
    }

    @Override
    public void onProgress(long bytesTransferred) {
        delegate.onProgress(bytesTransferred);
    }

    @Override
    public void onFileCompleted(FilePair file, long bytesTransferred) {
        delegate.onFileCompleted(file, bytesTransferred);
    }
}
