package org.ferry.server.pages;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.mover.protocol.ChecksumAlgorithm;

/** What the pages' forms send, read the same way by every page: blank fields, the sync level list. */
final class FormValues {

    private FormValues() {}

    /**
     * @param value a text field as the browser sent it
     * @return the trimmed value, or null when absent or blank (the field then takes its default)
     */
    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    /**
     * @param value the sync level list's choice: blank (always copy), a name, or 0 to 3
     * @return the sync level, or null for blank
     * @throws InvalidRequestException naming {@code sync_level} for another value
     */
    static SyncLevel syncLevel(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return SyncLevel.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(
                    "sync_level", "sync_level must be exists, size, mtime or checksum; was '" + value + "'");
        }
    }

    /**
     * @param value the checksum algorithm list's choice, in any case
     * @return the algorithm; MD5 (Globus' default) for blank
     * @throws InvalidRequestException naming {@code checksum_algorithm} for a name that is none of them
     */
    static ChecksumAlgorithm checksumAlgorithm(String value) {
        if (value == null || value.isBlank()) {
            return ChecksumAlgorithm.MD5;
        }
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.parse(value);
        if (algorithm == null) {
            throw new InvalidRequestException(
                    "checksum_algorithm",
                    "checksum_algorithm must be one of "
                            + Arrays.stream(ChecksumAlgorithm.values())
                                    .map(Enum::name)
                                    .collect(Collectors.joining(", "))
                            + "; was '" + value + "'");
        }
        return algorithm;
    }
}
