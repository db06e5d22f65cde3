package org.ferry.gsi.ca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.ferry.gsi.name.DistinguishedNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetupKeysTest {
    @TempDir
    Path tmp;

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void tellsAnUnknownKeyFromAUsedAndAnExpiredOne() throws Exception {
        SetupKeys keys = new SetupKeys(tmp.resolve("setup-keys"));
        String key = keys.create("connect/abc", T0.plusSeconds(60));
        String late = keys.create("connect/def", T0.plusSeconds(60));
        assertThat(Files.readString(tmp.resolve("setup-keys")))
                .doesNotContain(key)
                .contains("connect/abc");

        assertThat(keys.consume(" " + key + "\n", T0.plusSeconds(59)).serviceName())
                .isEqualTo("connect/abc");
        assertThatThrownBy(() -> keys.consume(key, T0.plusSeconds(1)))
                .isInstanceOfSatisfying(
                        SetupKeyException.class, e -> assertThat(e.reason()).isEqualTo(SetupKeyException.Reason.USED))
                .hasMessageStartingWith("setup key has already been used");
        assertThatThrownBy(() -> keys.consume(late, T0.plusSeconds(60)))
                .isInstanceOfSatisfying(
                        SetupKeyException.class,
                        e -> assertThat(e.reason()).isEqualTo(SetupKeyException.Reason.EXPIRED))
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> keys.consume("0123456789abcdef0123456789abcdef", T0))
                .isInstanceOfSatisfying(
                        SetupKeyException.class,
                        e -> assertThat(e.reason()).isEqualTo(SetupKeyException.Reason.UNKNOWN));
        // a refused key stays refused for what it is, and messages never carry the key
        assertThatThrownBy(() -> keys.consume(late, T0.plusSeconds(61))).hasMessageNotContaining(late);
    }

    @Test
    void readsTheFirstFormatsHashOnlyLines() throws Exception {
        SetupKeys keys = new SetupKeys(tmp.resolve("setup-keys"));
        String key = keys.create();
        String hashOnly = Files.readString(tmp.resolve("setup-keys")).split(" ")[0];
        Files.writeString(tmp.resolve("setup-keys"), hashOnly + "\n");
        assertThat(keys.consume(key, T0).serviceName()).isNull();
        assertThatThrownBy(() -> keys.consume(key, T0)).isInstanceOf(SetupKeyException.class);
    }

    @Test
    void redeemsABoundKeyForItsNameAndFindsTheCurrentCertificate() throws Exception {
        OnlineCa ca = OnlineCa.create("/O=Grid/OU=Ferry/CN=Ferry Online CA", tmp.resolve("ca"), 2048);
        String key = ca.newSetupKey("connect/0a1b", Duration.ofHours(1));
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        PKCS10CertificationRequest csr = new JcaPKCS10CertificationRequestBuilder(
                        new X500Name("CN=anything"), pair.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
        var cert = ca.redeemSetupKey(csr, key);
        assertThat(DistinguishedNames.oneline(cert.getSubjectX500Principal()))
                .isEqualTo("/O=Grid/OU=Ferry/CN=connect/0a1b");
        assertThat(ca.currentCertificate("connect/0a1b")).contains(cert);
        assertThat(ca.currentCertificate("connect/ffff")).isEmpty();
        assertThatThrownBy(() -> ca.redeemSetupKey(csr, key)).isInstanceOf(SetupKeyException.class);
        // a key bound to one name cannot fetch another
        String other = ca.newSetupKey("connect/0a1b", Duration.ofHours(1));
        assertThatThrownBy(() -> ca.issueHostCertificate(csr, "host/elsewhere.example.org", other))
                .isInstanceOf(SetupKeyException.class);

        ca.revoke(cert);
        assertThat(ca.isRevoked(cert)).isTrue();
        assertThat(ca.currentCertificate("connect/0a1b")).isEmpty();
        assertThatThrownBy(() -> ca.newSetupKey("no-slash", Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keepsEveryKeyWhenTwoWritersShareTheFile() throws Exception {
        // the relay serving and `ferry-connect-relay new-key` are two processes on one CA directory;
        // two instances stand for them here (each with its own monitor, as two processes have)
        Path file = tmp.resolve("setup-keys");
        SetupKeys relay = new SetupKeys(file);
        SetupKeys newKey = new SetupKeys(file);
        String redeemed = relay.create("connect/0001", T0.plusSeconds(600));
        int perWriter = 60;
        List<String> made = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> creating = pool.submit(() -> {
                go.await();
                for (int i = 0; i < perWriter; i++) {
                    made.add(newKey.create("connect/" + i, T0.plusSeconds(600)));
                }
                return null;
            });
            Future<?> consuming = pool.submit(() -> {
                go.await();
                for (int i = 0; i < perWriter; i++) {
                    String key = relay.create("connect/r" + i, T0.plusSeconds(600));
                    made.add(key);
                    if (i == perWriter / 2) {
                        relay.consume(redeemed, T0);
                    }
                }
                return null;
            });
            go.countDown();
            creating.get(60, TimeUnit.SECONDS);
            consuming.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }

        SetupKeys reader = new SetupKeys(file);
        assertThat(made).hasSize(2 * perWriter);
        for (String key : made) {
            assertThat(reader.consume(key, T0)).as("a key one writer made").isNotNull();
        }
        assertThatThrownBy(() -> reader.consume(redeemed, T0))
                .as("a redeemed key stays redeemed")
                .isInstanceOfSatisfying(
                        SetupKeyException.class, e -> assertThat(e.reason()).isEqualTo(SetupKeyException.Reason.USED));
    }
}
