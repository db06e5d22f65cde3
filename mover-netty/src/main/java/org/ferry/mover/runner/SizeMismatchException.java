package org.ferry.mover.runner;

import java.io.IOException;

/** The destination holds another size than the source after a transfer ({@code FILE_SIZE_CHANGED}). */
public class SizeMismatchException extends IOException {

    /** @param message which file, which sizes */
    public SizeMismatchException(String message) {
        super(message);
    }
}
