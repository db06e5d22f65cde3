package org.ferry.api.credential;

import java.security.GeneralSecurityException;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.gsi.store.CredentialCipher;
import org.springframework.stereotype.Component;

/**
 * Seals the service's secrets at rest with the credential key, each bound to its record by a
 * context: an endpoint's password ({@code endpoint-password:<endpoint id>}), an activated
 * credential ({@code endpoint-credential:<credential id>}), a delegation key pair's private key
 * ({@code delegation-key:<id>}). A sealed value copied to another row does not open.
 */
@Component
public class EndpointSecrets {

    private final CredentialCipher cipher;

    /** @param cipher the application's credential key */
    public EndpointSecrets(CredentialCipher cipher) {
        this.cipher = cipher;
    }

    /** @return the sealing context of an endpoint's password */
    public static String passwordContext(String endpointId) {
        return "endpoint-password:" + endpointId;
    }

    /** @return the sealing context of an activated credential */
    public static String credentialContext(UUID credentialId) {
        return "endpoint-credential:" + credentialId;
    }

    /** @return the sealing context of the movers' Ferry Connect credential, as sent for one endpoint */
    public static String connectContext(UUID endpointId) {
        return "connect-mover:" + endpointId;
    }

    /** @return the sealing context of a delegation key pair's private key */
    public static String delegationKeyContext(UUID pendingId) {
        return "delegation-key:" + pendingId;
    }

    /**
     * @param endpoint the endpoint
     * @param password its login password; null or empty for none
     */
    public void setPassword(Endpoint endpoint, String password) {
        endpoint.setSealedPassword(
                password == null || password.isEmpty()
                        ? null
                        : cipher.seal(password, passwordContext(endpoint.getId().toString())));
    }

    /**
     * @param plaintext a secret
     * @param context its record's context
     * @return the sealed value
     */
    public String seal(String plaintext, String context) {
        return cipher.seal(plaintext, context);
    }

    /**
     * @param sealed a sealed value
     * @param context its record's context
     * @return the secret
     * @throws GeneralSecurityException if it does not open (another key, altered, another record)
     */
    public String open(String sealed, String context) throws GeneralSecurityException {
        return cipher.openString(sealed, context);
    }
}
