package org.ferry.gsi.trust;

import java.security.GeneralSecurityException;

/**
 * A certificate chain was rejected. The message is meant for the user: it names the certificate
 * (oneline DN) and the rule that failed, e.g. "Certificate has expired on: ...".
 */
public class CertificateValidationException extends GeneralSecurityException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, for the user */
    public CertificateValidationException(String message) {
        super(message);
    }
}
