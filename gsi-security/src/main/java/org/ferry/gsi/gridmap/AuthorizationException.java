package org.ferry.gsi.gridmap;

import java.security.GeneralSecurityException;

/** An authenticated identity may not use the requested local account. Message for the user. */
public class AuthorizationException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    /** @param message what was refused and why */
    public AuthorizationException(String message) {
        super(message);
    }
}
