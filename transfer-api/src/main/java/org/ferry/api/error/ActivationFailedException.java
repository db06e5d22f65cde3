package org.ferry.api.error;

/**
 * An endpoint activation was refused (400 {@code ClientError.ActivationFailed}): a wrong MyProxy
 * passphrase or unknown user (the MyProxy server's words), an untrusted MyProxy server, an expired
 * or invalid credential, a delegated chain that is not for the offered key, or the endpoint's
 * server refusing the credential. The message says which, for the user; {@link #reason()} says it
 * for code (the web page's hint), so that nothing has to read the message's words.
 */
public class ActivationFailedException extends InvalidRequestException {

    /** The code. */
    public static final String CODE = "ClientError.ActivationFailed";

    /** What an activation was refused for, where the caller can act on it. */
    public enum Reason {
        /** Any refusal not named below (the message says what). */
        REFUSED,
        /** An encrypted SSH private key came without its passphrase. */
        PASSPHRASE_NEEDED,
        /** The passphrase does not decrypt the SSH private key. */
        WRONG_PASSPHRASE,
        /** The endpoint's sshd refused the login with the key. */
        KEY_REFUSED,
        /** The endpoint's sshd showed another host key than the one pinned at the endpoint's creation. */
        HOST_KEY_CHANGED
    }

    private final Reason reason;

    /** @param message what was refused and why */
    public ActivationFailedException(String message) {
        this(Reason.REFUSED, message);
    }

    /**
     * @param reason what it was refused for
     * @param message what was refused and why, for people
     */
    public ActivationFailedException(Reason reason, String message) {
        super(CODE, null, message);
        this.reason = reason;
    }

    /** @return what the activation was refused for; {@link Reason#REFUSED} when nothing more precise is known */
    public Reason reason() {
        return reason;
    }
}
