package org.ferry.mover.access;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.SshftpSecurity;
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
    private final Random random = new SecureRandom();

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
     * Opens a session to the endpoint's first server that logs in, starting from a random one
     * (Globus Online assigned transfers to one of a logical endpoint's servers at random).
     *
     * @param access the endpoint
     * @param dataProtection the least protection of every data channel ({@code encrypt_data}: P)
     * @return a logged-in session
     * @throws CredentialExpiredException if the GSI credential has expired
     * @throws IOException if the secret cannot be unsealed, every server fails, a server refuses the
     *     login, or the session cannot protect data channels as asked (e.g. PROT P on {@code ftp://})
     */
    public GridFtpSession open(EndpointAccess access, ProtectionLevel dataProtection) throws IOException {
        return open(access, dataProtection, random.nextInt(access.servers().size()))
                .session();
    }

    /**
     * A session and the server it went to.
     *
     * @param session the logged-in session
     * @param serverIndex the index of its server in {@link EndpointAccess#servers()}
     */
    public record Opened(GridFtpSession session, int serverIndex) {}

    /**
     * Opens a session, trying the endpoint's servers in order from {@code firstServer} (wrapping
     * around): a server that cannot be reached, times out or breaks the connection is a transient
     * fault and the next one is tried; a refusal (a 4xx/5xx reply such as 530, an untrusted
     * certificate, an expired credential) is not, and ends the attempt.
     *
     * @param access the endpoint
     * @param dataProtection the least protection of every data channel
     * @param firstServer the index of the server to try first (taken modulo the server count)
     * @return the session and the server it went to
     * @throws CredentialExpiredException if the GSI credential has expired
     * @throws IOException the refusal, or the last transient fault when every server failed
     */
    public Opened open(EndpointAccess access, ProtectionLevel dataProtection, int firstServer) throws IOException {
        GsiCredential credential = access.isGsi() ? credential(access) : null;
        TrustCache.Trust peers = access.isGsi() ? trust.trust(trustRoots(access)) : null;
        String password = access.isGsi() || access.sealedSecret() == null ? null : unseal(access);
        int count = access.servers().size();
        IOException last = null;
        for (int i = 0; i < count; i++) {
            int index = Math.floorMod(firstServer + i, count);
            EndpointAccess.Server server = access.servers().get(index);
            try {
                return new Opened(login(access, server, credential, peers, password, dataProtection), index);
            } catch (IOException e) {
                if (!isTransient(e) || count == 1) {
                    throw e;
                }
                last = new IOException(
                        access.endpoint() + ": server " + server.url() + " failed (" + e.getMessage() + ")"
                                + (last == null ? "" : "; before that " + last.getMessage()),
                        e);
            }
        }
        throw last;
    }

    private GridFtpSession login(
            EndpointAccess access,
            EndpointAccess.Server server,
            GsiCredential credential,
            TrustCache.Trust peers,
            String password,
            ProtectionLevel dataProtection)
            throws IOException {
        GridFtpUrl parsed = GridFtpUrl.parse(server.url());
        if (server.isSsh()) {
            return loginSsh(access, server, parsed, password, dataProtection);
        }
        String user = access.username() == null ? "anonymous" : access.username();
        GsiClientSecurity gsi = null;
        GridFtpUrl url;
        if (credential != null) {
            gsi = new GsiClientSecurity(
                    credential,
                    peers.validator(),
                    peers.trustStore(),
                    DelegationMode.LIMITED,
                    DELEGATED_LIFETIME,
                    server.subject());
            url = new GridFtpUrl(parsed.scheme(), parsed.host(), parsed.port(), user, "globus@", "/");
        } else {
            url = new GridFtpUrl(
                    parsed.scheme(), parsed.host(), parsed.port(), user, password == null ? "globus@" : password, "/");
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
     * An {@code sshftp://} login: the stored private key, the host key pinned at the endpoint's
     * creation and nothing else (no known_hosts, no agent of the mover's account).
     */
    private GridFtpSession loginSsh(
            EndpointAccess access,
            EndpointAccess.Server server,
            GridFtpUrl parsed,
            String privateKey,
            ProtectionLevel dataProtection)
            throws IOException {
        if (privateKey == null || access.username() == null) {
            throw new IOException(access.endpoint() + ": an sshftp:// endpoint needs its SSH user and private key");
        }
        SshftpSecurity security;
        try {
            PublicKey hostKey = PublicKeyEntry.parsePublicKeyEntry(server.subject())
                    .resolvePublicKey(null, null, PublicKeyEntryResolver.FAILING);
            List<KeyPair> keys = new ArrayList<>();
            try (InputStream in = new ByteArrayInputStream(privateKey.getBytes(StandardCharsets.UTF_8))) {
                Iterable<KeyPair> pairs = SecurityUtils.loadKeyPairIdentities(
                        null, NamedResource.ofName(access.endpoint()), in, FilePasswordProvider.EMPTY);
                if (pairs != null) {
                    pairs.forEach(keys::add);
                }
            }
            if (keys.isEmpty()) {
                throw new GeneralSecurityException("no private key");
            }
            security = SshftpSecurity.pinned(hostKey).withKeys(keys);
        } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
            // never the key itself in the message
            throw new IOException(
                    access.endpoint() + ": the stored SSH key or pinned host key cannot be read ("
                            + e.getClass().getSimpleName() + ")",
                    e);
        }
        GridFtpSession session = client.openSsh(
                new GridFtpUrl("sshftp", parsed.host(), parsed.port(), access.username(), "", "/"), security);
        try {
            session.requireDataProtection(dataProtection);
            return session;
        } catch (IOException | RuntimeException e) {
            session.close();
            throw new IOException(access.endpoint() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return true for faults another server of the endpoint may not have: no connection, an
     *     unknown host, a timeout, a broken connection; false for refusals (a reply, a certificate
     *     or TLS failure, an expired credential)
     */
    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CredentialExpiredException
                    || t instanceof GridFtpReplyException
                    || t instanceof GeneralSecurityException
                    || t instanceof SSLException
                    || t instanceof GsiContextException) {
                return false;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException
                    || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException
                    || t instanceof SocketTimeoutException
                    || t instanceof TimeoutException
                    || t instanceof EOFException
                    || t instanceof ClosedChannelException) {
                return true;
            }
            String text = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (text.contains("connection refused")
                    || text.contains("timed out")
                    || text.contains("connection reset")
                    || text.contains("closed")) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param access a {@code gsiftp://} endpoint
     * @return the session security its credential gives, for its first server
     * @throws CredentialExpiredException if the credential has expired
     * @throws IOException if there is no credential or it cannot be unsealed or read
     */
    public GsiClientSecurity security(EndpointAccess access) throws IOException {
        TrustCache.Trust peers = trust.trust(trustRoots(access));
        return new GsiClientSecurity(
                credential(access),
                peers.validator(),
                peers.trustStore(),
                DelegationMode.LIMITED,
                DELEGATED_LIFETIME,
                access.servers().get(0).subject());
    }

    /**
     * @param access a {@code gsiftp://} endpoint
     * @return when its credential ends
     * @throws CredentialExpiredException if it has ended or ends within {@link #EXPIRY_MARGIN}
     * @throws IOException if there is no credential or it cannot be unsealed or read
     */
    public Instant credentialEnd(EndpointAccess access) throws IOException {
        return credential(access).notAfter();
    }

    private GsiCredential credential(EndpointAccess access) throws IOException {
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
        return credential;
    }

    /**
     * The URL by which a multicast server (the chunk's first destination) reaches a further
     * destination of the tree ({@code SITE SETDISKSTACK file,gridftp_multicast:urls=...}, see
     * {@code org.ferry.mover.server.multicast.MulticastTree}): for {@code ftp://} the endpoint's
     * first server with its login ({@code ftp://user:password@host:port}, user info
     * percent-encoded, anonymous as {@code anonymous:globus@}); for {@code gsiftp://} the server
     * alone, which the forwarding server reaches with its own host credential. Without a path: the
     * file goes to the same path as on the first destination.
     *
     * @param access a further destination
     * @return its URL for the tree (holds the password: never log it)
     * @throws IOException if the password cannot be unsealed, or for an {@code sshftp://} endpoint
     *     (the multicast driver refuses those)
     */
    public String forwardingUrl(EndpointAccess access) throws IOException {
        GridFtpUrl server = GridFtpUrl.parse(access.servers().get(0).url());
        if (access.isSsh()) {
            throw new IOException(
                    access.endpoint() + " is an sshftp:// endpoint, which a multicast server cannot reach");
        }
        String hostPort =
                (server.host().contains(":") ? "[" + server.host() + "]" : server.host()) + ":" + server.port();
        if (access.isGsi()) {
            return "gsiftp://" + hostPort;
        }
        String user = access.username() == null ? "anonymous" : access.username();
        String password = access.sealedSecret() == null ? "globus@" : unseal(access);
        return "ftp://" + userInfo(user) + ":" + userInfo(password) + "@" + hostPort;
    }

    private static String userInfo(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
