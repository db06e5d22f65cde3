package org.ferry.gsi;

import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;

/** A test CA (Ferry's own OnlineCa, 2048-bit for speed) and user credentials it issues. */
public final class TestPki {
    public final OnlineCa ca;
    public final Path dir;

    private TestPki(OnlineCa ca, Path dir) {
        this.ca = ca;
        this.dir = dir;
    }

    /** Creates a CA {@code /O=Grid/OU=<ou>/CN=<ou> CA} under {@code dir}. */
    public static TestPki create(Path dir, String ou) throws Exception {
        return create(dir, ou, 2048);
    }

    /**
     * Creates a CA {@code /O=Grid/OU=<ou>/CN=<ou> CA} with a key of {@code keyBits} under {@code dir}
     * (4096 is what {@code grid-ca-create} makes by default).
     */
    public static TestPki create(Path dir, String ou, int keyBits) throws Exception {
        return new TestPki(OnlineCa.create("/O=Grid/OU=" + ou + "/CN=" + ou + " CA", dir.resolve("ca"), keyBits), dir);
    }

    /** @return the trust directory (X509_CERT_DIR) of this CA */
    public Path trustDir() {
        return ca.trustDirectory();
    }

    /** Issues a user credential {@code <base>/CN=<cn>} valid from notBefore to notAfter. */
    public GsiCredential user(String cn, Instant notBefore, Instant notAfter) throws Exception {
        return user(cn, notBefore, notAfter, 2048);
    }

    /** Issues a user credential {@code <base>/CN=<cn>} with a key of {@code keyBits}, valid for a day. */
    public GsiCredential user(String cn, int keyBits) throws Exception {
        Instant now = Instant.now();
        return user(cn, now.minus(Duration.ofMinutes(5)), now.plus(Duration.ofDays(1)), keyBits);
    }

    private GsiCredential user(String cn, Instant notBefore, Instant notAfter, int keyBits) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(keyBits);
        KeyPair pair = gen.generateKeyPair();
        X509Certificate cert = ca.issuer().issue(ca.subjectFor(cn), pair.getPublic(), notBefore, notAfter, List.of());
        return new GsiCredential(pair.getPrivate(), List.of(cert));
    }

    /** Issues a user credential valid for a day. */
    public GsiCredential user(String cn) throws Exception {
        Instant now = Instant.now();
        return user(cn, now.minus(Duration.ofMinutes(5)), now.plus(Duration.ofDays(1)));
    }
}
