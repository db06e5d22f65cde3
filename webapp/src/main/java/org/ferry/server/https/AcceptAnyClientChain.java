package org.ferry.server.https;

import java.security.cert.X509Certificate;
import javax.net.ssl.X509TrustManager;

/**
 * The trust manager of the HTTPS listener's TLS layer: accepts any client chain the client
 * proves it holds the key of, and validates nothing itself. The application validates the chain
 * on every request with gsi-security ({@code org.ferry.api.security.ClientCertificateAuthenticator}),
 * because the JDK's PKIX validation refuses RFC 3820 proxy certificates. A request whose chain
 * fails that check gets 401, so no chain that only passed this class is ever trusted.
 *
 * <p>Tomcat instantiates it by class name ({@code SSLHostConfig.trustManagerClassName}), hence
 * the public no-argument constructor.
 */
public final class AcceptAnyClientChain implements X509TrustManager {

    /** For Tomcat. */
    public AcceptAnyClientChain() {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
        // validated per request by the application (see the class comment)
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
        throw new UnsupportedOperationException("a server-side trust manager");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        // no CA names in the CertificateRequest: proxy chains end in a user's certificate
        return new X509Certificate[0];
    }
}
