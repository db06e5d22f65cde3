package org.ferry.gsi.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's bootstrapped trust roots add CAs beside the site's and never replace a site file. */
class TrustCacheTest {

    @TempDir
    Path tmp;

    @Test
    void extraRootsAddACaWithoutReplacingSiteFiles() throws Exception {
        TestPki site = TestPki.create(tmp.resolve("site"), "Site");
        TestPki other = TestPki.create(tmp.resolve("other"), "Other");
        GsiCredential siteUser = site.user("Site User");
        GsiCredential otherUser = other.user("Other User");
        TrustRoots otherRoots = TrustRoots.read(other.trustDir());
        // a forged policy for the site's CA must not replace the site's own
        String siteHash = TrustRoots.read(site.trustDir()).files().keySet().stream()
                .filter(n -> n.endsWith(".0"))
                .findFirst()
                .orElseThrow()
                .replace(".0", "");
        TrustRoots forged = otherRoots.plus(TrustRoots.of(Map.of(
                siteHash + ".signing_policy", "access_id_CA X509 'nothing'\\n".getBytes(StandardCharsets.US_ASCII))));
        try (TrustCache cache = new TrustCache(site.trustDir(), tmp.resolve("work"))) {
            assertThatThrownBy(() -> cache.trust(TrustRoots.EMPTY).validator().validate(otherUser.chain()))
                    .isInstanceOf(CertificateValidationException.class);
            TrustCache.Trust merged = cache.trust(forged);
            assertThat(merged.validator().validate(otherUser.chain()).identity())
                    .endsWith("/CN=Other User");
            assertThat(merged.validator().validate(siteUser.chain()).identity()).endsWith("/CN=Site User");
            assertThat(merged.trustStore().caCertificates()).hasSize(2);
            assertThat(cache.trust(forged)).isEqualTo(merged);
            assertThat(Files.readString(merged.trustStore().directory().resolve(siteHash + ".signing_policy")))
                    .isEqualTo(Files.readString(site.trustDir().resolve(siteHash + ".signing_policy")));
        }
    }

    @Test
    void namesThatCouldLeaveTheDirectoryAreRefused() {
        for (String name : new String[] {"../0123abcd.0", "0123abcd.pem", "x/0123abcd.0", "0123ABCD.0"}) {
            assertThatThrownBy(() -> TrustRoots.of(Map.of(name, new byte[1])))
                    .as(name)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
