package org.ferry.api.error;

/**
 * An endpoint activation was refused (400 {@code ClientError.ActivationFailed}): a wrong MyProxy
 * passphrase or unknown user (the MyProxy server's words), an untrusted MyProxy server, an expired
 * or invalid credential, a delegated chain that is not for the offered key, or the endpoint's
 * server refusing the credential. The message says which, for the user.
 */
public class ActivationFailedException extends InvalidRequestException {

    /** The code. */
    public static final String CODE = "ClientError.ActivationFailed";

    /** @param message what was refused and why */
    public ActivationFailedException(String message) {
        super(CODE, null, message);
    }
}
