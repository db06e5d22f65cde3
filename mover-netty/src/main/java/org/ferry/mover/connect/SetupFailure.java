package org.ferry.mover.connect;

/** Pairing or starting an agent failed; the message says why and what to do, for the user. */
public final class SetupFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message for the user */
    public SetupFailure(String message) {
        super(message);
    }

    /**
     * @param message for the user
     * @param cause the underlying failure
     */
    public SetupFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
