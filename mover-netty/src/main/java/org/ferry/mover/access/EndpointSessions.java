package org.ferry.mover.access;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * Opens {@link EndpointAccess} values into logged-in sessions: unseals the password or the proxy
 * credential with the configured key, validates peers against the site's trust directory plus the
 * access's extra roots, delegates a limited proxy (as globus-url-copy; the server then
 * authenticates data channels with it, DCAU A by default) and sets the session's least data
 * channel protection. A GSI credential that has expired, or will within
 * {@link #EXPIRY_MARGIN}, is refused before connecting with {@link CredentialExpiredException}.
 * Thread-safe.
 */
public final class EndpointSessions {

    /** A credential closer than this to its end is treated as expired: a login would outlive it. */
    public static final Duration EXPIRY_MARGIN = Duration.ofSeconds(10);

    private static final Duration DELEGATED_LIFETIME = Duration.ofHours(12);

    private final GridFtpClient client;
    private final CredentialCipher cipher;
    private final TrustCache trust;
    private final Clock clock;

    /**
     * @param client opens the control channels
     * @param cipher unseals secrets
     * @param trust the site's trust directory and users' extra roots
     * @param clock what "now" is for expiry checks
     */
    public EndpointSessions(GridFtpClient client, CredentialCipher cipher, TrustCache trust, Clock clock) {
        this.client = client;
        this.cipher = cipher;
        this.trust = trust;
        this.clock = clock;
    }

    /**
     * @param access the endpoint
     * @param dataProtection the least protection of every data channel ({@code encrypt_data}: P)
     * @return a logged-in session
     * @throws CredentialExpiredException if the GSI credential has expired
     * @throws IOException if the secret cannot be unsealed, the login fails, or the session cannot
     *     protect data channels as asked (e.g. PROT P on {@code ftp://})
     */
    public GridFtpSession open(EndpointAccess access, ProtectionLevel dataProtection) throws IOException {
        GridFtpUrl url = GridFtpUrl.parse(access.url());
        GsiClientSecurity gsi = null;
        if (access.isGsi()) {
            gsi = security(access);
        } else {
            String user = access.username() == null ? "anonymous" : access.username();
            String password = access.sealedSecret() == null ? "globus@" : unseal(access);
            url = new GridFtpUrl(url.scheme(), url.host(), url.port(), user, password, "/");
        }
        GridFtpSession session = client.open(url, gsi);
        try {
            session.requireDataProtection(dataProtection);
            return session;
        } catch (IOException | RuntimeException e) {
            session.close();
            throw new IOException(access.endpoint() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param access a {@code gsiftp://} endpoint
     * @return the session security its credential gives
     * @throws CredentialExpiredException if the credential has expired
     * @throws IOException if there is no credential or it cannot be unsealed or read
     */
    public GsiClientSecurity security(EndpointAccess access) throws IOException {
        if (access.sealedSecret() == null) {
            throw new IOException("endpoint " + access.endpoint() + " is not activated: it has no credential");
        }
        GsiCredential credential;
        String pem = unseal(access);
        try {
            credential = PemFiles.parseCredential(pem);
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "the credential of endpoint " + access.endpoint() + " is unusable: " + e.getMessage(), e);
        }
        Instant notAfter = credential.notAfter();
        if (!clock.instant().plus(EXPIRY_MARGIN).isBefore(notAfter)) {
            throw new CredentialExpiredException(access.endpoint(), notAfter);
        }
        TrustCache.Trust peers = trust.trust(trustRoots(access));
        return new GsiClientSecurity(
                credential,
                peers.validator(),
                peers.trustStore(),
                DelegationMode.LIMITED,
                DELEGATED_LIFETIME,
                access.serverSubject());
    }

    private String unseal(EndpointAccess access) throws IOException {
        try {
            return cipher.openString(access.sealedSecret(), access.secretContext());
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "cannot unseal the credential of endpoint " + access.endpoint() + ": " + e.getMessage(), e);
        }
    }

    private static TrustRoots trustRoots(EndpointAccess access) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try {
            access.trustRoots()
                    .forEach((name, base64) ->
                            files.put(name, Base64.getDecoder().decode(base64)));
            return TrustRoots.of(files);
        } catch (IllegalArgumentException e) {
            throw new IOException(
                    "the trust roots of endpoint " + access.endpoint() + " are malformed: " + e.getMessage(), e);
        }
    }

    /**
     * @param roots trust files
     * @return them as an {@link EndpointAccess#trustRoots()} map (name to base64)
     */
    public static Map<String, String> encode(TrustRoots roots) {
        Map<String, String> encoded = new TreeMap<>();
        roots.files()
                .forEach(
                        (name, content) -> encoded.put(name, Base64.getEncoder().encodeToString(content)));
        return encoded;
    }
}
