package org.ferry.mover.runner;

import java.io.IOException;

/**
 * The destination holds what the source holds, but not the checksum the user gave for the file
 * ({@code external_checksum}, Globus {@code EXTERNAL_CHECKSUM_MISMATCH}): sending it again cannot
 * help.
 */
public class ExternalChecksumMismatchException extends IOException {

    /** @param message which file, which algorithm, both values */
    public ExternalChecksumMismatchException(String message) {
        super(message);
    }
}
