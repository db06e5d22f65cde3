package org.ferry.gsi.context;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.GsiTrustManager;

/**
 * Builds the {@link SSLEngine} of one GridFTP data connection under DCAU A/S (GFD.020 "DCAU", RFC 2228 section 3 (PROT); GFD.020 GSI appendix): our credential (often a delegated proxy) as key material, a
 * {@link GsiTrustManager} as the only trust decision (stock PKIX rejects proxies), TLS 1.3 and 1.2
 * (RFC 8446, RFC 5246) as Globus' gsi.conf, and both sides authenticated.
 *
 * <p>Every engine gets its own {@link SSLContext}: data connections never resume sessions, and one
 * engine per connection lets parallel connections run their cryptography on different threads.
 * The server side sends no TLS 1.3 NewSessionTicket, so nothing but the handshake and our own
 * records ever travels on a connection that continues in clear (PROT C).
 */
public final class GsiEngines {

    /**
     * JDK's TLS 1.3 server skips NewSessionTicket when the session timeout exceeds the 7-day ticket
     * lifetime limit of RFC 8446 section 4.6.1; a resumption ticket is useless on a data connection.
     */
    private static final int NO_TICKET_SESSION_TIMEOUT_SECONDS = 7 * 24 * 3600 + 1;

    /**
     * The JDK setting that makes a TLS server ignore the client's server_name extension. Globus
     * initiators send the expected peer's DN (spaces, slashes) as SNI on DCAU data connections; the
     * JDK rejects such a ClientHello ("Contains non-LDH ASCII characters", RFC 6066 section 3 allows
     * only host names) unless server_name is disabled. The JDK reads it once, before its first TLS
     * handshake: set it on the command line or first thing in {@code main}.
     */
    public static final String DISABLE_SERVER_EXTENSIONS_PROPERTY = "jdk.tls.server.disableExtensions";

    private GsiEngines() {}

    /**
     * Disables the server-side SNI extension for this JVM unless the property is already set.
     * Call at the start of {@code main}, before any TLS handshake (later calls have no effect).
     */
    public static void ignoreServerNameIndication() {
        if (System.getProperty(DISABLE_SERVER_EXTENSIONS_PROPERTY) == null) {
            System.setProperty(DISABLE_SERVER_EXTENSIONS_PROPERTY, "server_name");
        }
    }

    /** @return true when this JVM's TLS servers ignore SNI, as data connections from globus need */
    public static boolean serverNameIndicationIgnored() {
        return String.valueOf(System.getProperty(DISABLE_SERVER_EXTENSIONS_PROPERTY))
                .contains("server_name");
    }

    /**
     * The TLS context of one transfer's data connections: make one engine per connection from it
     * with {@link #newEngine}. Engines made without a peer host never resume a session.
     *
     * @param own          the credential to present (leaf first; a proxy chain is fine)
     * @param trustManager validates the peer and checks its identity (DCAU A/S)
     * @return a context
     * @throws GsiContextException if the JDK cannot set up TLS with this credential
     */
    public static SSLContext dataChannelContext(GsiCredential own, GsiTrustManager trustManager)
            throws GsiContextException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    new KeyManager[] {new CredentialKeyManager(own)},
                    new TrustManager[] {trustManager},
                    new SecureRandom());
            context.getServerSessionContext().setSessionTimeout(NO_TICKET_SESSION_TIMEOUT_SECONDS);
            return context;
        } catch (GeneralSecurityException e) {
            throw new GsiContextException("cannot set up TLS for a data channel: " + e.getMessage(), e);
        }
    }

    /**
     * The key manager that {@link #dataChannelContext} uses, for TLS implementations built outside
     * JSSE (e.g. Netty's OpenSSL contexts): it presents {@code own} (a proxy chain is fine) for any
     * requested key type matching its key, whatever issuers the peer names (a proxy's issuer is
     * never a CA).
     *
     * @param own the credential to present, leaf first
     * @return a key manager with one alias
     */
    public static X509ExtendedKeyManager keyManager(GsiCredential own) {
        return new CredentialKeyManager(own);
    }

    /**
     * @param context    from {@link #dataChannelContext}
     * @param clientMode true on the connecting side (GSI initiator, TLS client), false on the
     *                   listening side (acceptor, TLS server, client certificate required)
     * @return a new engine for one data connection, handshake not begun
     */
    public static SSLEngine newEngine(SSLContext context, boolean clientMode) {
        SSLEngine engine = context.createSSLEngine();
        engine.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        engine.setUseClientMode(clientMode);
        if (!clientMode) {
            engine.setNeedClientAuth(true); // DCAU: the peer must prove an identity
        }
        return engine;
    }
}
