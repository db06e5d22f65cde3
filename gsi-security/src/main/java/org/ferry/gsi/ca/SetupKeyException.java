package org.ferry.gsi.ca;

import java.security.GeneralSecurityException;

/** A setup key was unknown or had already been used. */
public class SetupKeyException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    /** @param message for the user; never contains the key */
    public SetupKeyException(String message) {
        super(message);
    }
}
