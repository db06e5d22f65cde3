package org.ferry.api.activation;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.domain.Endpoint;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.springframework.stereotype.Component;

/**
 * Before a credential is kept, one login to the endpoint's server with it: a server that refuses
 * it (a DN missing from its grid-mapfile, a CA it does not trust) makes the activation fail with
 * the server's words, instead of every later task. A server that cannot be reached does not: the
 * activation stands and the result says so.
 */
@Component
public class CredentialCheck {

    private final EndpointSessions sessions;
    private final EndpointSecrets secrets;
    private final EndpointAccessService accesses;

    /**
     * @param sessions opens sessions
     * @param secrets seals the credential for the check
     * @param accesses the endpoint's servers
     */
    public CredentialCheck(EndpointSessions sessions, EndpointSecrets secrets, EndpointAccessService accesses) {
        this.sessions = sessions;
        this.secrets = secrets;
        this.accesses = accesses;
    }

    /**
     * @param endpoint the endpoint
     * @param credential the credential to try
     * @param roots the user's trust roots, including any new ones
     * @return null if the server accepted the login; a note when it could not be reached
     * @throws ActivationFailedException 400 {@code ClientError.ActivationFailed} ({@link ActivationFailedException}) with the
     *     server's reply when it refused
     */
    String check(Endpoint endpoint, GsiCredential credential, TrustRoots roots) {
        String context = "activation-check:" + endpoint.getId();
        EndpointAccess access;
        try {
            String username = endpoint.getUsername();
            access = new EndpointAccess(
                    endpoint.getCanonicalName(),
                    accesses.servers(endpoint),
                    username == null || username.equals("anonymous") ? null : username,
                    secrets.seal(PemFiles.credentialPem(credential), context),
                    context,
                    EndpointSessions.encode(roots));
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the credential: " + e.getMessage(), e);
        }
        try (GridFtpSession session = sessions.open(access, ProtectionLevel.CLEAR)) {
            return null;
        } catch (ConnectException | UnknownHostException | NoRouteToHostException | SocketTimeoutException e) {
            return "the endpoint's server could not be reached to check the credential (" + e.getMessage() + ")";
        } catch (IOException e) {
            throw MyProxyActivation.failed("The server of endpoint " + endpoint.getCanonicalName()
                    + " refused the credential of " + credential.identity() + ": " + e.getMessage());
        }
    }
}
