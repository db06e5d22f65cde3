package org.ferry.gsi.context;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.delegation.DelegationRequest;
import org.ferry.gsi.delegation.DelegationSigner;
import org.ferry.gsi.proxy.ProxyPolicyKind;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.GsiTrustManager;
import org.ferry.gsi.trust.TrustStore;
import org.ferry.gsi.trust.ValidatedChain;

/**
 * The GSI mechanism on an {@link SSLEngine} (reference 4.2; GFD.020 GSI appendix): tokens are raw
 * TLS records, no framing. After the handshake the delegation exchange runs as TLS application
 * data: under TLS 1.3 the acceptor first sends one {@code 0x00} byte (the initiator sent the last
 * handshake flight and discards it); the initiator sends {@code 'D'} or {@code '0'}; on
 * {@code 'D'} the acceptor sends a DER PKCS#10 request and the initiator answers with the DER
 * proxy certificate alone.
 *
 * <p>TLS 1.2 and 1.3 are enabled; peers are validated with the GSI {@link ChainValidator}, never
 * with stock PKIX (which rejects proxies). Each context has its own {@link SSLContext}, so no
 * session is resumed and the full-handshake message order above always holds.
 */
public final class GsiSecurityContext implements SecurityContext {

    private enum State {
        HANDSHAKE,
        AWAIT_ZERO_BYTE,
        AWAIT_FLAG,
        AWAIT_CSR,
        AWAIT_CERT,
        ESTABLISHED
    }

    private static final byte FLAG_DELEGATE = 'D';
    private static final byte FLAG_NO_DELEGATION = '0';

    private final SSLEngine engine;
    private final GsiTrustManager trustManager;
    private final boolean initiator;
    private final GsiCredential credential;
    private final DelegationMode delegation;
    private final Duration delegatedLifetime;
    private State state = State.HANDSHAKE;
    private boolean handshakeBegun;
    private ByteBuffer inNet = ByteBuffer.allocate(0);
    private DelegationRequest pendingDelegation;
    private GsiCredential delegated;

    private GsiSecurityContext(
            SSLEngine engine,
            GsiTrustManager trustManager,
            boolean initiator,
            GsiCredential credential,
            DelegationMode delegation,
            Duration delegatedLifetime) {
        this.engine = engine;
        this.trustManager = trustManager;
        this.initiator = initiator;
        this.credential = credential;
        this.delegation = delegation;
        this.delegatedLifetime = delegatedLifetime;
    }

    /**
     * The server side ({@code AUTH GSSAPI} received). A client certificate is required; anonymous
     * peers fail after the handshake with a 530-worthy message.
     *
     * @param own        the server's host or service credential
     * @param validator  validates client chains (proxies, limited proxies allowed)
     * @param trustStore CA names to request client certificates for
     * @return a context; feed it the first ADAT token
     * @throws GsiContextException if TLS cannot be set up
     */
    public static GsiSecurityContext acceptor(GsiCredential own, ChainValidator validator, TrustStore trustStore)
            throws GsiContextException {
        GsiTrustManager tm = new GsiTrustManager(validator, trustStore, chain -> true);
        SSLEngine engine = newEngine(own, tm, null, -1);
        engine.setUseClientMode(false);
        engine.setWantClientAuth(true);
        return new GsiSecurityContext(engine, tm, false, own, DelegationMode.NONE, null);
    }

    /**
     * The client side.
     *
     * @param own               the user's credential (usually a proxy)
     * @param validator         validates the server's chain
     * @param trustStore        trust anchors
     * @param host              the server host name (SNI; expected identity when
     *                          {@code acceptServer} is null)
     * @param port              the server port
     * @param acceptServer      check on the server's validated identity, or null for the GSI host
     *                          rule: CN {@code host/<host>} (or {@code ftp/<host>}), or a dNSName of {@code host}
     * @param delegation        what to delegate
     * @param delegatedLifetime lifetime of a delegated proxy (capped by our own)
     * @return a context; call {@code step(null)} for the first ADAT token
     * @throws GsiContextException if TLS cannot be set up
     */
    public static GsiSecurityContext initiator(
            GsiCredential own,
            ChainValidator validator,
            TrustStore trustStore,
            String host,
            int port,
            Predicate<ValidatedChain> acceptServer,
            DelegationMode delegation,
            Duration delegatedLifetime)
            throws GsiContextException {
        Predicate<ValidatedChain> check = acceptServer != null ? acceptServer : chain -> isHost(chain, host);
        GsiTrustManager tm = new GsiTrustManager(validator, trustStore, check);
        SSLEngine engine = newEngine(own, tm, host, port);
        engine.setUseClientMode(true);
        return new GsiSecurityContext(engine, tm, true, own, delegation, delegatedLifetime);
    }

    /** GSI host name rule (reference 4.1 step 6, STRICT_RFC2818 then CN host/fqdn). */
    static boolean isHost(ValidatedChain chain, String host) {
        try {
            var sans = chain.endEntity().getSubjectAlternativeNames();
            if (sans != null) {
                for (var san : sans) {
                    if (Integer.valueOf(2).equals(san.get(0)) && host.equalsIgnoreCase(String.valueOf(san.get(1)))) {
                        return true;
                    }
                }
            }
        } catch (java.security.cert.CertificateParsingException e) {
            return false;
        }
        String id = chain.identity();
        String lower = id.toLowerCase(java.util.Locale.ROOT);
        String h = host.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith("/cn=host/" + h) || lower.endsWith("/cn=ftp/" + h) || lower.endsWith("/cn=" + h);
    }

    private static SSLEngine newEngine(GsiCredential own, GsiTrustManager tm, String host, int port)
            throws GsiContextException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    new javax.net.ssl.KeyManager[] {new CredentialKeyManager(own)},
                    new TrustManager[] {tm},
                    new SecureRandom());
            SSLEngine engine = host == null ? context.createSSLEngine() : context.createSSLEngine(host, port);
            // TLS >= 1.2 as Globus (gsi.conf); 1.3 first.
            engine.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            return engine;
        } catch (GeneralSecurityException e) {
            throw new GsiContextException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] step(byte[] input) throws GsiContextException {
        try {
            return switch (state) {
                case HANDSHAKE -> handshakeStep(input);
                case AWAIT_ZERO_BYTE -> afterZeroByte(input);
                case AWAIT_FLAG -> onFlag(input);
                case AWAIT_CSR -> onCsr(input);
                case AWAIT_CERT -> onCertificate(input);
                case ESTABLISHED -> throw new GsiContextException("security context already established");
            };
        } catch (SSLException e) {
            throw new GsiContextException(friendly(e), e);
        }
    }

    private byte[] handshakeStep(byte[] input) throws SSLException, GsiContextException {
        if (!handshakeBegun) {
            engine.beginHandshake();
            handshakeBegun = true;
        }
        append(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean finished = drive(out);
        if (!finished) {
            return out.toByteArray();
        }
        boolean tls13 = "TLSv1.3".equals(engine.getSession().getProtocol());
        if (initiator) {
            if (tls13) {
                // We sent the last flight (our Finished); the acceptor answers with one 0x00 byte.
                state = State.AWAIT_ZERO_BYTE;
                return out.toByteArray();
            }
            out.writeBytes(sendFlag());
            return out.toByteArray();
        }
        requirePeer();
        if (tls13) {
            // The initiator spoke last; give it something to read so the token loop goes on.
            out.writeBytes(wrapBytes(new byte[] {0}));
        }
        state = State.AWAIT_FLAG;
        return out.toByteArray();
    }

    private byte[] afterZeroByte(byte[] input) throws SSLException, GsiContextException {
        byte[] data = unwrapBytes(input);
        if (data.length != 1) {
            throw new GsiContextException(
                    "Delegation protocol violation: expected one byte after the handshake, got " + data.length);
        }
        return sendFlag();
    }

    private byte[] sendFlag() throws SSLException {
        boolean delegate = delegation != DelegationMode.NONE;
        state = delegate ? State.AWAIT_CSR : State.ESTABLISHED;
        return wrapBytes(new byte[] {delegate ? FLAG_DELEGATE : FLAG_NO_DELEGATION});
    }

    private byte[] onFlag(byte[] input) throws SSLException, GsiContextException {
        byte[] data = unwrapBytes(input);
        if (data.length != 1 || (data[0] != FLAG_DELEGATE && data[0] != FLAG_NO_DELEGATION)) {
            throw new GsiContextException("Delegation protocol violation");
        }
        if (data[0] == FLAG_NO_DELEGATION) {
            state = State.ESTABLISHED;
            return null;
        }
        int bits = peer().leaf().getPublicKey() instanceof RSAPublicKey rsa
                ? Math.max(2048, rsa.getModulus().bitLength())
                : 2048;
        try {
            pendingDelegation = DelegationRequest.create(bits, "CN=proxy");
        } catch (GeneralSecurityException e) {
            throw new GsiContextException("cannot create delegation request: " + e.getMessage(), e);
        }
        state = State.AWAIT_CERT;
        return wrapBytes(pendingDelegation.csrDer());
    }

    private byte[] onCsr(byte[] input) throws SSLException, GsiContextException {
        byte[] csr = unwrapBytes(input);
        ProxyPolicyKind policy =
                delegation == DelegationMode.FULL ? ProxyPolicyKind.IMPERSONATION : ProxyPolicyKind.LIMITED;
        try {
            byte[] cert = new DelegationSigner(new BcProxyFactory())
                    .sign(credential, csr, new ProxyRequest(delegatedLifetime, policy, -1, 2048));
            state = State.ESTABLISHED;
            return wrapBytes(cert);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new GsiContextException("delegation failed: " + e.getMessage(), e);
        }
    }

    private byte[] onCertificate(byte[] input) throws SSLException, GsiContextException {
        byte[] der = unwrapBytes(input);
        try {
            delegated = pendingDelegation.complete(der, peer().chain());
        } catch (GeneralSecurityException e) {
            throw new GsiContextException("delegation failed: " + e.getMessage(), e);
        } finally {
            pendingDelegation = null;
        }
        state = State.ESTABLISHED;
        return null;
    }

    private void requirePeer() throws GsiContextException {
        if (trustManager.lastPeer() == null) {
            throw new GsiContextException(
                    "no client certificate: GSI authentication needs a credential (run grid-proxy-init)");
        }
    }

    /**
     * Runs the engine's handshake on the buffered input, collecting output records.
     *
     * @return true when the handshake completed during this call
     */
    private boolean drive(ByteArrayOutputStream out) throws SSLException {
        boolean finished = false;
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        while (true) {
            HandshakeStatus hs = engine.getHandshakeStatus();
            SSLEngineResult r;
            switch (hs) {
                case NEED_WRAP -> {
                    r = wrapInto(ByteBuffer.allocate(0), out);
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (!inNet.hasRemaining() && hs == HandshakeStatus.NEED_UNWRAP) {
                        return finished;
                    }
                    r = engine.unwrap(inNet, app);
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        return finished;
                    }
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                        app = ByteBuffer.allocate(app.capacity() * 2);
                        continue;
                    }
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    continue;
                }
                default -> {
                    return finished;
                }
            }
            if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                finished = true;
                if (engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING && !inNet.hasRemaining()) {
                    return true;
                }
            }
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("peer closed the TLS session");
            }
        }
    }

    private SSLEngineResult wrapInto(ByteBuffer src, ByteArrayOutputStream out) throws SSLException {
        ByteBuffer net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        while (true) {
            SSLEngineResult r = engine.wrap(src, net);
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                net = ByteBuffer.allocate(net.capacity() * 2);
                continue;
            }
            net.flip();
            out.write(net.array(), 0, net.limit());
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("TLS session closed");
            }
            return r;
        }
    }

    private byte[] wrapBytes(byte[] plain) throws SSLException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer src = ByteBuffer.wrap(plain);
        do {
            wrapInto(src, out);
        } while (src.hasRemaining());
        return out.toByteArray();
    }

    private byte[] unwrapBytes(byte[] token) throws SSLException {
        append(token);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        while (inNet.hasRemaining()) {
            SSLEngineResult r = engine.unwrap(inNet, app);
            switch (r.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    return collect(app, out);
                }
                case BUFFER_OVERFLOW -> {
                    collect(app, out);
                    app = ByteBuffer.allocate(app.capacity() * 2);
                }
                case CLOSED -> throw new SSLException("peer closed the TLS session");
                default -> {
                    // Post-handshake messages (TLS 1.3 NewSessionTicket) may need tasks or a reply.
                    if (engine.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                        Runnable task;
                        while ((task = engine.getDelegatedTask()) != null) {
                            task.run();
                        }
                    }
                }
            }
        }
        return collect(app, out);
    }

    private static byte[] collect(ByteBuffer app, ByteArrayOutputStream out) {
        app.flip();
        out.write(app.array(), 0, app.limit());
        app.clear();
        return out.toByteArray();
    }

    private void append(byte[] token) {
        if (token == null || token.length == 0) {
            return;
        }
        ByteBuffer merged = ByteBuffer.allocate(inNet.remaining() + token.length);
        merged.put(inNet).put(token).flip();
        inNet = merged;
    }

    @Override
    public boolean established() {
        return state == State.ESTABLISHED;
    }

    @Override
    public byte[] wrap(byte[] plain) throws GsiContextException {
        requireEstablished();
        try {
            return wrapBytes(plain);
        } catch (SSLException e) {
            throw new GsiContextException("cannot protect message: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] unwrap(byte[] token) throws GsiContextException {
        requireEstablished();
        byte[] plain;
        try {
            plain = unwrapBytes(token);
        } catch (SSLException e) {
            throw new GsiContextException("cannot verify protected message: " + e.getMessage(), e);
        }
        if (inNet.hasRemaining()) {
            // A wrap token is whole TLS records; a partial one left behind would corrupt the next.
            int missing = inNet.remaining();
            inNet = ByteBuffer.allocate(0);
            throw new GsiContextException("cannot verify protected message: truncated TLS record (" + missing
                    + " bytes of an incomplete record)");
        }
        return plain;
    }

    private void requireEstablished() throws GsiContextException {
        if (state != State.ESTABLISHED) {
            throw new GsiContextException("security context not established");
        }
    }

    @Override
    public boolean confidential() {
        return !engine.getSession().getCipherSuite().contains("_NULL_");
    }

    @Override
    public ValidatedChain peer() {
        ValidatedChain p = trustManager.lastPeer();
        if (p == null) {
            throw new IllegalStateException("no authenticated peer yet");
        }
        return p;
    }

    @Override
    public Optional<GsiCredential> delegatedCredential() {
        return Optional.ofNullable(delegated);
    }

    /**
     * Caps this context at TLS 1.2, a switch kept for peers whose GSI delegation breaks under TLS
     * 1.3 (java-lessons "interop hazards"; gridcf/gct #174). Call before the first {@link #step}.
     *
     * @return this context
     * @throws IllegalStateException if the handshake has begun
     */
    public GsiSecurityContext tls12Only() {
        if (handshakeBegun) {
            throw new IllegalStateException("handshake already begun");
        }
        engine.setEnabledProtocols(new String[] {"TLSv1.2"});
        return this;
    }

    /** @return the negotiated TLS protocol, e.g. {@code TLSv1.3} (for logs and tests) */
    public String protocol() {
        return engine.getSession().getProtocol();
    }

    private static String friendly(SSLException e) {
        // JSSE wraps our CertificateValidationException text; surface the innermost message.
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String inner = t.getMessage() != null ? t.getMessage() : t.toString();
        return "GSS authentication failed: " + inner;
    }
}
