package org.ferry.api.activation;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.ferry.api.error.ActivationFailedException;
import org.ferry.api.error.EndpointException;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.myproxy.MyProxyClient;
import org.ferry.gsi.myproxy.MyProxyException;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.springframework.stereotype.Component;

/**
 * Retrieves a user's proxy from a MyProxy server for an activation, as {@code myproxy-logon}
 * does: the passphrase is used for this one request and never stored; the server and the
 * credential are validated against the site's CAs plus the user's bootstrapped roots. With trust
 * bootstrap ({@code myproxy-logon -b}) the server is accepted on first use, its trust roots are
 * fetched, and the server's chain and the credential must validate against them before either is
 * trusted; the roots then belong to the user.
 */
@Component
public class MyProxyActivation {

    /** What a retrieval brought. */
    record Retrieved(GsiCredential credential, TrustRoots newTrustRoots, String server) {}

    private final TrustCache trust;

    /** @param trust the site's trust directory and users' extra roots */
    public MyProxyActivation(TrustCache trust) {
        this.trust = trust;
    }

    /**
     * @param request the filled-in MyProxy requirements
     * @param userRoots the roots the user bootstrapped earlier
     * @return the credential and, when bootstrapping, the roots to keep for the user
     * @throws org.ferry.api.error.FerryException 400 {@code ClientError.ActivationFailed} ({@link ActivationFailedException}) with the server's or the
     *     validator's words (wrong passphrase, unknown user, untrusted server, expired or invalid
     *     credential); 502 when the server cannot be reached
     */
    Retrieved retrieve(MyProxyRequest request, TrustRoots userRoots) {
        String where = request.host() + ":" + request.port();
        char[] passphrase = request.passphrase();
        try {
            if (!request.bootstrapTrust()) {
                TrustCache.Trust current;
                try {
                    current = trust.trust(userRoots);
                } catch (IOException noCas) {
                    throw failed(
                            "Cannot trust MyProxy server " + where + ": Ferry trusts no CA yet (" + noCas.getMessage()
                                    + ") and you bootstrapped none. If you trust the server, activate with bootstrap_trust"
                                    + " (ferry endpoint activate ... --myproxy-bootstrap-trust), which accepts its CA as"
                                    + " myproxy-logon -b does");
                }
                MyProxyClient client = new MyProxyClient(
                        request.host(), request.port(), current.validator(), current.trustStore(), request.serverDn());
                MyProxyClient.Retrieval retrieval = client.retrieve(
                        request.username(), passphrase, Duration.ofHours(request.lifetimeHours()), false);
                return new Retrieved(retrieval.credential(), TrustRoots.EMPTY, where);
            }
            MyProxyClient.Retrieval retrieval = MyProxyClient.bootstrapping(
                            request.host(), request.port(), request.serverDn())
                    .retrieve(request.username(), passphrase, Duration.ofHours(request.lifetimeHours()), true);
            TrustRoots roots = retrieval.trustRoots();
            if (roots.isEmpty()) {
                // a server without cert_dir sends none: trust the CA it presented, as myproxy-logon -b
                List<X509Certificate> chain = retrieval.serverChain();
                roots = TrustRoots.ofCertificate(chain.get(chain.size() - 1));
            }
            TrustCache.Trust bootstrapped = trust.trust(userRoots.plus(roots));
            try {
                bootstrapped.validator().validate(retrieval.serverChain());
                bootstrapped.validator().validate(retrieval.credential().chain());
            } catch (CertificateValidationException e) {
                throw failed("MyProxy server " + where + " sent trust roots that do not validate it or the credential"
                        + " it issued: " + e.getMessage());
            }
            return new Retrieved(retrieval.credential(), roots, where);
        } catch (MyProxyException e) {
            throw failed(e.getMessage());
        } catch (ConnectException | UnknownHostException | SocketTimeoutException e) {
            throw new EndpointException("Cannot reach MyProxy server " + where + ": " + e.getMessage());
        } catch (CertificateValidationException e) {
            throw failed("The credential from MyProxy server " + where + " is not valid: " + e.getMessage());
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("TLS handshake with MyProxy server")) {
                throw failed("Cannot trust MyProxy server " + where + ": " + message
                        + ". If you trust it, activate with bootstrap_trust (ferry endpoint activate ..."
                        + " --myproxy-bootstrap-trust), which accepts its CA as myproxy-logon -b does");
            }
            throw new EndpointException("MyProxy server " + where + " failed: " + message);
        } catch (GeneralSecurityException e) {
            throw failed("The credential from MyProxy server " + where + " is not valid: " + e.getMessage());
        } finally {
            java.util.Arrays.fill(passphrase, '\0');
        }
    }

    static ActivationFailedException failed(String message) {
        return new ActivationFailedException(message);
    }

    /**
     * The filled-in MyProxy requirements.
     *
     * @param host MyProxy server host
     * @param port its port (7512 by default)
     * @param username the MyProxy account
     * @param passphrase its passphrase; cleared after use
     * @param serverDn the DN the server must present, or null for {@code host/<host>}
     * @param lifetimeHours the proxy lifetime to ask for
     * @param bootstrapTrust accept the server's CA on first use ({@code myproxy-logon -b})
     */
    record MyProxyRequest(
            String host,
            int port,
            String username,
            char[] passphrase,
            String serverDn,
            int lifetimeHours,
            boolean bootstrapTrust) {

        /** Never shows the passphrase. */
        @Override
        public String toString() {
            return "MyProxyRequest[" + username + "@" + host + ":" + port + "]";
        }
    }
}
