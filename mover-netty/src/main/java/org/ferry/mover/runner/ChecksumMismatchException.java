package org.ferry.mover.runner;

import java.io.IOException;

/** Source and destination checksums differ after a transfer ({@code VERIFY_CHECKSUM}). */
public class ChecksumMismatchException extends IOException {

    /** @param message which file, which digests */
    public ChecksumMismatchException(String message) {
        super(message);
    }
}
