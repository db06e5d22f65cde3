package org.ferry.mover.data.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.context.GsiEngines;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.GsiTrustManager;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GsiClearHandshake} (DCAU A with PROT C, GFD.020 "DCAU", RFC 2228 section 3 (PROT)) between two embedded
 * channels under TLS 1.3 and 1.2: writes made before authentication are held and then go out
 * clear; the peer's clear bytes that arrive in the same read as its last TLS record reach the next
 * handler untouched; a peer with another identity is refused; nothing leaks.
 */
class GsiClearHandshakeTest {
    @TempDir
    static Path tmp;

    static OnlineCa ca;
    static CanlChainValidator validator;
    static OpensslTrustDirectory trust;
    static GsiCredential alice;
    static GsiCredential bob;

    @BeforeAll
    static void pki() throws Exception {
        ca = OnlineCa.create("/O=Grid/OU=Clear/CN=Clear CA", tmp.resolve("ca"), 2048);
        validator = new CanlChainValidator(ca.trustDirectory());
        trust = OpensslTrustDirectory.load(ca.trustDirectory());
        alice = proxyFor("Alice");
        bob = proxyFor("Bob");
    }

    @AfterAll
    static void close() {
        validator.close();
    }

    static GsiCredential proxyFor(String cn) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var cert = ca.issuer()
                .issue(
                        ca.subjectFor(cn),
                        pair.getPublic(),
                        now.minusSeconds(300),
                        now.plus(Duration.ofDays(1)),
                        List.of());
        return new BcProxyFactory()
                .createProxy(new GsiCredential(pair.getPrivate(), List.of(cert)), ProxyRequest.limited());
    }

    static SSLEngine engine(GsiCredential own, String expectedPeer, boolean client, String protocol) throws Exception {
        SSLContext context = GsiEngines.dataChannelContext(
                own,
                new GsiTrustManager(
                        validator, trust, chain -> DistinguishedNames.sameDn(chain.identity(), expectedPeer)));
        SSLEngine engine = GsiEngines.newEngine(context, client);
        engine.setEnabledProtocols(new String[] {protocol});
        return engine;
    }

    /** Collects what reaches the transfer handlers. */
    static final class Collector extends ChannelInboundHandlerAdapter {
        final ByteBuf bytes = Unpooled.buffer();
        final List<Throwable> errors = new ArrayList<>();
        boolean active;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            active = true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            bytes.writeBytes(buf);
            buf.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    /** Moves outbound bytes across until both sides are quiet; one merged buffer per hop. */
    static void pump(EmbeddedChannel a, EmbeddedChannel b) {
        boolean moved = true;
        while (moved) {
            moved = transfer(a, b) | transfer(b, a);
        }
    }

    static boolean transfer(EmbeddedChannel from, EmbeddedChannel to) {
        ByteBuf merged = Unpooled.buffer();
        Object msg;
        while ((msg = from.readOutbound()) != null) {
            ByteBuf buf = (ByteBuf) msg;
            merged.writeBytes(buf);
            buf.release();
        }
        if (!merged.isReadable()) {
            merged.release();
            return false;
        }
        if (to.isOpen()) {
            to.writeInbound(merged);
        } else {
            merged.release();
        }
        return true;
    }

    @Test
    void authenticatesThenPassesClearBytesUnderTls13And12() throws Exception {
        for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
            try (LeakCapture leaks = LeakCapture.open()) {
                Collector clientSide = new Collector();
                Collector serverSide = new Collector();
                EmbeddedChannel client = new EmbeddedChannel();
                EmbeddedChannel server = new EmbeddedChannel();
                server.pipeline()
                        .addLast(
                                new GsiClearHandshake(engine(alice, alice.identity(), false, protocol), false),
                                serverSide);
                client.pipeline()
                        .addLast(
                                new GsiClearHandshake(engine(alice, alice.identity(), true, protocol), true),
                                clientSide);
                // a sender's first block is written before authentication: held, then sent clear
                client.writeAndFlush(Unpooled.copiedBuffer("MODE E block", StandardCharsets.US_ASCII));
                pump(client, server);
                assertThat(server.pipeline().get(GsiClearHandshake.class))
                        .as(protocol)
                        .isNull();
                assertThat(client.pipeline().get(GsiClearHandshake.class))
                        .as(protocol)
                        .isNull();
                assertThat(serverSide.bytes.toString(StandardCharsets.US_ASCII))
                        .as(protocol)
                        .isEqualTo("MODE E block");
                server.writeAndFlush(Unpooled.copiedBuffer("reply", StandardCharsets.US_ASCII));
                ByteBuf raw = server.readOutbound();
                assertThat(raw.toString(StandardCharsets.US_ASCII))
                        .as("clear on the wire")
                        .isEqualTo("reply");
                client.writeInbound(raw);
                assertThat(clientSide.bytes.toString(StandardCharsets.US_ASCII)).isEqualTo("reply");
                assertThat(clientSide.errors).isEmpty();
                assertThat(serverSide.errors).isEmpty();
                clientSide.bytes.release();
                serverSide.bytes.release();
                client.finishAndReleaseAll();
                server.finishAndReleaseAll();
                leaks.assertNoLeaks();
            }
        }
    }

    @Test
    void refusesAPeerWithAnotherIdentity() throws Exception {
        try (LeakCapture leaks = LeakCapture.open()) {
            Collector serverSide = new Collector();
            Collector clientSide = new Collector();
            EmbeddedChannel client = new EmbeddedChannel();
            EmbeddedChannel server = new EmbeddedChannel();
            // the server holds Alice's credential and wants Alice; Bob connects, accepting Alice
            server.pipeline()
                    .addLast(
                            new GsiClearHandshake(engine(alice, alice.identity(), false, "TLSv1.3"), false),
                            serverSide);
            client.pipeline()
                    .addLast(new GsiClearHandshake(engine(bob, alice.identity(), true, "TLSv1.3"), true), clientSide);
            client.writeAndFlush(Unpooled.copiedBuffer("data", StandardCharsets.US_ASCII));
            pump(client, server);
            assertThat(serverSide.errors)
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage())
                            .startsWith("data channel authentication with")
                            .contains("peer /O=Grid/OU=Clear/CN=Bob is not the expected identity"));
            assertThat(serverSide.bytes.isReadable()).isFalse();
            assertThat(server.isOpen()).isFalse();
            assertThat(clientSide.errors)
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).contains("data channel authentication"));
            clientSide.bytes.release();
            serverSide.bytes.release();
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
            leaks.assertNoLeaks();
        }
    }
}
