package org.ferry.mover.runner;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.ferry.mover.protocol.FileInfo;

/**
 * The source file changed while (or since) it was read: its size or modification time after the
 * transfer differ from those the file was planned with ({@code FILE_SIZE_CHANGED}, as Globus
 * Transfer reports it). What the destination received may match neither version, so the file is
 * planned again with the source's new size and time ({@link #replan}) and sent again whole.
 */
public final class SourceChangedException extends IOException {

    private final long sizeBytes;
    private final Instant modified;

    private SourceChangedException(String message, long sizeBytes, Instant modified) {
        super(message);
        this.sizeBytes = sizeBytes;
        this.modified = modified;
    }

    /**
     * Compares the source's facts after a transfer with the file's plan. The size always counts;
     * the modification time counts when both are known (the {@code Modify} fact, RFC 3659 section
     * 7, has whole seconds on globus-gridftp-server and ferry-gridftp: a rewrite of the same size
     * within the planning's second goes unseen here, and only {@code verify_checksum} can find it).
     *
     * @param planned the file as planned (or planned again after an earlier change)
     * @param now the source's facts after the transfer (MLST)
     * @return the change, or null when the source is still the planned version
     */
    public static SourceChangedException compare(FileTransfer planned, FileInfo now) {
        boolean sizeChanged = now.sizeBytes() != planned.sizeBytes();
        boolean timeChanged = planned.sourceModified() != null
                && now.modified() != null
                && !now.modified().equals(planned.sourceModified());
        if (!sizeChanged && !timeChanged) {
            return null;
        }
        return of(planned, now.sizeBytes(), now.modified());
    }

    /**
     * @param planned the file as planned
     * @param sizeBytes the source's size now
     * @param modified the source's modification time now, or null when not known
     * @return the change from the plan to these facts
     */
    public static SourceChangedException of(FileTransfer planned, long sizeBytes, Instant modified) {
        return new SourceChangedException(
                planned.sourcePath() + " changed while it was read: planned with " + planned.sizeBytes()
                        + " bytes, modified " + planned.sourceModified() + "; now " + sizeBytes
                        + " bytes, modified " + modified + " (sending it again)",
                sizeBytes,
                modified);
    }

    /** @return the source's size after the transfer, bytes */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** @return the source's modification time after the transfer, or null when it lists none */
    public Instant modified() {
        return modified;
    }

    /**
     * @param file the file as planned
     * @return the file planned again from the source's new facts: sent whole (no ranges to resume,
     *     they hold the old version), checked against the new size and time, its attempts numbered
     *     as before; a time the source does not list keeps the planned one
     */
    public FileTransfer replan(FileTransfer file) {
        return new FileTransfer(
                file.id(),
                file.sourcePath(),
                file.destinationPath(),
                sizeBytes,
                List.of(),
                file.attemptsBefore(),
                modified != null ? modified : file.sourceModified(),
                file.externalChecksum());
    }
}
