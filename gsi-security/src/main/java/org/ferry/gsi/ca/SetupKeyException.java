package org.ferry.gsi.ca;

import java.security.GeneralSecurityException;

/** A setup key was refused: unknown (mistyped, or never made here), already used, or expired. */
public class SetupKeyException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    /** Why a setup key was refused. */
    public enum Reason {
        /** No such key: mistyped, or made by another CA. */
        UNKNOWN,
        /** The key was redeemed before: a one-time key, perhaps stolen. */
        USED,
        /** The key's lifetime ended before it was redeemed. */
        EXPIRED
    }

    private final Reason reason;

    /** @param message for the user; never contains the key */
    public SetupKeyException(String message) {
        this(Reason.UNKNOWN, message);
    }

    /**
     * @param reason why the key was refused
     * @param message for the user; never contains the key
     */
    public SetupKeyException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** @return why the key was refused */
    public Reason reason() {
        return reason;
    }
}
