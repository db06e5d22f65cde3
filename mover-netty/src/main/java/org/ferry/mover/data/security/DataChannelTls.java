package org.ferry.mover.data.security;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.GsiTrustManager;

/**
 * The TLS of the PROT S/P data connections of one {@link DataChannelSecurity} ("SSL compatible"
 * mode, GFD.020 "DCAU", RFC 2228 section 3 (PROT); RFC 8446 and RFC 5246): makes one {@link SslHandler}, with its own
 * engine, per connection, in the TLS client role on the connecting side and the server role
 * (client certificate required) on the accepting side.
 *
 * <p>Two providers do the same job. {@link Provider#OPENSSL} is BoringSSL through Netty's
 * netty-tcnative-boringssl-static, whose native library ships inside that jar (Linux x86_64 and
 * aarch64, macOS, Windows): its AES-GCM runs several times faster than the JDK 17 one, which is what
 * bounds PROT S/P throughput (the JDK's GHASH over direct buffers dominated both ends' profiles).
 * {@link Provider#JDK} is JSSE with {@link GsiEngines}, for platforms where the native library does
 * not load. Both present our credential (a proxy chain is fine), leave every trust decision to the
 * {@link GsiTrustManager} (which validates proxies and checks DCAU A/S identity), offer TLS 1.3 and
 * 1.2, and never resume sessions (engines are made without a peer host; Netty's OpenSSL contexts
 * send no session tickets). Host name verification is off: the GSI identity check replaces it.
 *
 * <p>Immutable and thread-safe; engines are made on each connection's event loop.
 */
final class DataChannelTls {

    /** Which TLS implementation encrypts the data connections. */
    enum Provider {
        /** BoringSSL via netty-tcnative (JNI), when its native library loads. */
        OPENSSL,
        /** The JDK's JSSE. */
        JDK
    }

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final Provider provider;
    private final SslContext client;
    private final SslContext server;
    private final SSLContext jdk;

    private DataChannelTls(Provider provider, SslContext client, SslContext server, SSLContext jdk) {
        this.provider = provider;
        this.client = client;
        this.server = server;
        this.jdk = jdk;
    }

    /** @return {@link Provider#OPENSSL} when BoringSSL loads on this platform, else {@link Provider#JDK} */
    static Provider preferredProvider() {
        return OpenSsl.isAvailable() ? Provider.OPENSSL : Provider.JDK;
    }

    /**
     * @param own          our credential: key and chain, leaf first
     * @param trustManager validates the peer's chain and identity
     * @param provider     the TLS implementation; {@link Provider#OPENSSL} needs {@link OpenSsl#isAvailable()}
     * @return the contexts for both roles
     * @throws GsiContextException if the provider cannot use this credential, or OpenSSL is missing
     */
    static DataChannelTls create(GsiCredential own, GsiTrustManager trustManager, Provider provider)
            throws GsiContextException {
        if (provider == Provider.JDK) {
            return new DataChannelTls(provider, null, null, GsiEngines.dataChannelContext(own, trustManager));
        }
        if (!OpenSsl.isAvailable()) {
            throw new GsiContextException(
                    "OpenSSL is not available for data channel TLS: " + OpenSsl.unavailabilityCause(),
                    OpenSsl.unavailabilityCause());
        }
        // Our key manager rather than key and chain: given those, Netty builds a password-protected
        // KeyStore (PBKDF2), 10-20 ms per context and so per session; the caching factory converts
        // the credential for OpenSSL once, at the first handshake, not at every one.
        KeyManagerFactory keys =
                new OpenSslCachingX509KeyManagerFactory(new KeyManagerFactoryWrapper(GsiEngines.keyManager(own)));
        try {
            SslContext client = SslContextBuilder.forClient()
                    .sslProvider(SslProvider.OPENSSL)
                    .keyManager(keys)
                    .trustManager(trustManager)
                    .endpointIdentificationAlgorithm(
                            null) // GSI identity, not a host name (Netty 4.2 defaults to HTTPS)
                    .protocols(PROTOCOLS)
                    .build();
            SslContext server = SslContextBuilder.forServer(keys)
                    .sslProvider(SslProvider.OPENSSL)
                    .trustManager(trustManager)
                    .clientAuth(ClientAuth.REQUIRE) // DCAU: the connecting peer must prove an identity too
                    .protocols(PROTOCOLS)
                    .build();
            return new DataChannelTls(provider, client, server, null);
        } catch (SSLException | RuntimeException e) {
            throw new GsiContextException("cannot set up OpenSSL for a data channel: " + e.getMessage(), e);
        }
    }

    /** @return the implementation in use */
    Provider provider() {
        return provider;
    }

    /**
     * @param alloc     the connection's allocator (OpenSSL reads and writes its buffers directly)
     * @param initiator true on the connecting side (TLS client), false on the accepting side
     * @return a new handler with its own engine, handshake not begun
     */
    SslHandler newHandler(ByteBufAllocator alloc, boolean initiator) {
        if (jdk != null) {
            return new SslHandler(GsiEngines.newEngine(jdk, initiator));
        }
        return (initiator ? client : server).newHandler(alloc);
    }
}
