package org.ferry.mover.data.security;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.GsiTrustManager;
import org.ferry.gsi.trust.TrustStore;

/**
 * How the data connections of one transfer are authenticated and protected (DCAU A/S and PROT;
 * GFD.020 GSI appendix, RFC 2228 section 3, GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)). Handed to
 * {@code DataChannels.secured(...)}; it puts its handlers at the front of each connection's pipeline
 * before the transfer handlers:
 * <ul>
 * <li>PROT C: {@link GsiClearHandshake} (GSI handshake and flag byte, then clear bytes);</li>
 * <li>PROT S/P: an {@link SslHandler} ("SSL compatible": a plain TLS session, RFC 8446/5246) from
 * {@link DataChannelTls} (BoringSSL when its native library loads, else the JDK), a
 * {@link CloseAfterHandshake}, a {@link FileRegionToBuffer} and {@link DataChannelAuthFailures}.</li>
 * </ul>
 * The connecting side is the TLS client. Each connection gets its own TLS engine, so parallel
 * connections encrypt on their own event loops. The peer must present {@code credential}'s
 * identity (DCAU A) or the given subject (DCAU S); limited proxies are accepted, as globus does. A
 * peer chain accepted once is not path-validated again for {@link #VALIDATION_MEMORY}
 * ({@link RecentChainValidator}).
 * PROT C keeps the JDK engine: its records end with the handshake and the flag byte.
 *
 * <p>Immutable and thread-safe; DCAU N has no instance (callers simply do not secure).
 */
public final class DataChannelSecurity {

    /**
     * How long an accepted peer chain is trusted again without a new path validation; the TLS
     * handshake of each connection still proves the peer's key.
     */
    static final Duration VALIDATION_MEMORY = Duration.ofMinutes(5);

    private final DataChannelAuthentication authentication;
    private final ProtectionLevel protection;
    private final String expectedPeer;
    private final SSLContext handshakeOnly;
    private final DataChannelTls tls;

    /**
     * @param credential     ours: the session's delegated credential on a server, the user's proxy
     *                       on a client
     * @param validator      validates peer chains (proxies included)
     * @param trustStore     CA certificates (named in the server's CertificateRequest)
     * @param authentication DCAU A or S
     * @param protection     PROT level
     * @throws IllegalArgumentException if {@code authentication} is DCAU N
     * @throws GsiContextException if TLS cannot be set up with the credential
     */
    public DataChannelSecurity(
            GsiCredential credential,
            ChainValidator validator,
            TrustStore trustStore,
            DataChannelAuthentication authentication,
            ProtectionLevel protection)
            throws GsiContextException {
        this(credential, validator, trustStore, authentication, protection, DataChannelTls.preferredProvider());
    }

    /**
     * As the public constructor, with the PROT S/P TLS implementation chosen (tests run both).
     *
     * @param tlsProvider used under PROT S/P; PROT C always uses the JDK
     * @throws GsiContextException also if {@code tlsProvider} is OpenSSL and it does not load here
     */
    DataChannelSecurity(
            GsiCredential credential,
            ChainValidator validator,
            TrustStore trustStore,
            DataChannelAuthentication authentication,
            ProtectionLevel protection,
            DataChannelTls.Provider tlsProvider)
            throws GsiContextException {
        Objects.requireNonNull(credential, "credential");
        if (!authentication.authenticates()) {
            throw new IllegalArgumentException("DCAU N needs no data channel security");
        }
        this.authentication = authentication;
        this.protection = Objects.requireNonNull(protection, "protection");
        this.expectedPeer = authentication.mode() == DataChannelAuthentication.Mode.SELF
                ? credential.identity()
                : authentication.subject();
        // one path validation per distinct peer chain, not one per data connection (p of them per transfer)
        ChainValidator recent = new RecentChainValidator(validator, VALIDATION_MEMORY, Clock.systemUTC());
        GsiTrustManager trustManager = new GsiTrustManager(
                recent, trustStore, chain -> DistinguishedNames.sameDn(chain.identity(), expectedPeer));
        if (protection.tls()) {
            this.handshakeOnly = null;
            this.tls = DataChannelTls.create(credential, trustManager, tlsProvider);
        } else {
            this.handshakeOnly = GsiEngines.dataChannelContext(credential, trustManager);
            this.tls = null;
        }
    }

    /** @return the DCAU setting */
    public DataChannelAuthentication authentication() {
        return authentication;
    }

    /** @return the PROT level */
    public ProtectionLevel protection() {
        return protection;
    }

    /** @return the identity a peer must present, OpenSSL oneline form */
    public String expectedPeer() {
        return expectedPeer;
    }

    /**
     * Adds this connection's security handlers at the end of {@code pipeline}; call before adding
     * the transfer handlers. Runs on the channel's event loop.
     *
     * @param pipeline  a new data connection's pipeline
     * @param initiator true on the connecting side (TLS client), false on the accepting side
     */
    public void install(ChannelPipeline pipeline, boolean initiator) {
        if (tls != null) {
            SslHandler tlsHandler = tls.newHandler(pipeline.channel().alloc(), initiator);
            pipeline.addLast("dcau-tls", tlsHandler);
            pipeline.addLast("dcau-close", new CloseAfterHandshake(tlsHandler));
            pipeline.addLast("dcau-regions", new FileRegionToBuffer());
            pipeline.addLast("dcau-failures", new DataChannelAuthFailures(protection == ProtectionLevel.PRIVATE));
        } else {
            pipeline.addLast(
                    "dcau-gsi", new GsiClearHandshake(GsiEngines.newEngine(handshakeOnly, initiator), initiator));
        }
    }

    /** @return the PROT S/P TLS implementation, or null under PROT C (JDK handshake only) */
    DataChannelTls.Provider tlsProvider() {
        return tls == null ? null : tls.provider();
    }

    /**
     * @param transferHandler the handler (often an initializer) a connecting data connection gets
     * @return an initializer that installs the security handlers (initiator side) and then it
     */
    public ChannelHandler initiatorInitializer(ChannelHandler transferHandler) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                install(ch.pipeline(), true);
                ch.pipeline().addLast(transferHandler);
            }
        };
    }

    @Override
    public String toString() {
        return "DCAU " + authentication.letter() + ", PROT " + protection.code() + ", peer " + expectedPeer
                + (tls == null ? "" : ", TLS by " + tls.provider());
    }
}
