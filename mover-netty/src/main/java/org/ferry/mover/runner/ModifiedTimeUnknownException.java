package org.ferry.mover.runner;

import java.io.IOException;

/**
 * The source lists no modification time for a file whose time must be preserved
 * ({@code preserve_timestamp}): its {@code Modify} fact (RFC 3659 section 7) is missing.
 */
public final class ModifiedTimeUnknownException extends IOException {

    /** @param message which file, and why its time cannot be preserved */
    public ModifiedTimeUnknownException(String message) {
        super(message);
    }
}
