package org.ferry.gsi.context;

import java.security.GeneralSecurityException;

/** GSI authentication or protection failed. The message is meant for the user (530 reply text). */
public class GsiContextException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed */
    public GsiContextException(String message) {
        super(message);
    }

    /**
     * @param message what failed
     * @param cause   the underlying failure
     */
    public GsiContextException(String message, Throwable cause) {
        super(message, cause);
    }
}
