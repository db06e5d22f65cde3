package org.ferry.server.pages;

import org.ferry.api.domain.SyncLevel;
import org.ferry.api.error.InvalidRequestException;

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
}
