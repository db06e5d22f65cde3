package org.ferry.scheduler.plan;

import java.io.IOException;
import org.ferry.api.domain.SyncLevel;
import org.ferry.mover.protocol.FileInfo;

/**
 * Decides whether a file must be copied under a sync level (service-semantics b.3). Level
 * {@code mtime} compares whole seconds: the precision of the {@code Modify} facts servers list and
 * of the MFMT with which {@code preserve_timestamp} sets a destination file's time, so a file whose
 * time was preserved is current even when the source lists a fraction of a second.
 */
public final class SyncCheck {

    /** Computes checksums on demand (only level 3 needs them, and only for files of equal size). */
    @FunctionalInterface
    public interface Checksums {
        /**
         * @return true if source and destination checksums are equal
         * @throws IOException if either server fails
         */
        boolean equal() throws IOException;
    }

    private SyncCheck() {}

    /**
     * @param level the sync level, or null to always copy
     * @param source the source file
     * @param destination the destination file, or null if absent
     * @param checksums compares checksums (level 3)
     * @return true if the file must be copied
     * @throws IOException if a checksum cannot be computed
     */
    public static boolean needsCopy(SyncLevel level, FileInfo source, FileInfo destination, Checksums checksums)
            throws IOException {
        if (level == null || destination == null || !destination.isFile()) {
            return true;
        }
        return switch (level) {
            case EXISTS -> false;
            case SIZE -> source.sizeBytes() != destination.sizeBytes();
            case MTIME ->
                source.modified() == null
                        || destination.modified() == null
                        || source.modified().getEpochSecond()
                                > destination.modified().getEpochSecond();
            case CHECKSUM -> source.sizeBytes() != destination.sizeBytes() || !checksums.equal();
        };
    }
}
