package org.ferry.gsi.name;

import static org.assertj.core.api.Assertions.assertThat;

import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

class DistinguishedNamesTest {

    @Test
    void onelineUsesDerOrderAndOpensslShortNames() {
        // RFC 2253 string is reversed: CN first.
        X500Principal p = new X500Principal("EMAILADDRESS=a@b.org,CN=Jane Doe,OU=Test,O=Grid,DC=example,C=US");
        assertThat(DistinguishedNames.oneline(p))
                .isEqualTo("/C=US/DC=example/O=Grid/OU=Test/CN=Jane Doe/emailAddress=a@b.org");
    }

    @Test
    void parseOnelineRoundTripsAndHonoursEscapedSlash() {
        String dn = "/O=Grid/OU=Ferry Test/CN=host\\/example.org";
        assertThat(DistinguishedNames.oneline(DistinguishedNames.parseOneline(dn)))
                .isEqualTo("/O=Grid/OU=Ferry Test/CN=host/example.org");
        assertThat(DistinguishedNames.oneline(DistinguishedNames.parseOneline("/O=Grid/E=x@y.org")))
                .isEqualTo("/O=Grid/emailAddress=x@y.org");
    }

    @Test
    void sameDnFollowsGlobusNormalisation() {
        assertThat(DistinguishedNames.sameDn("/O=Grid/UID=jd/CN=J", "/o=GRID/USERID=jd/cn=j"))
                .isTrue();
        assertThat(DistinguishedNames.sameDn("/O=Grid/Email=a@b", "/O=Grid/emailAddress=A@B"))
                .isTrue();
        assertThat(DistinguishedNames.sameDn("/O=Grid/CN=A", "/O=Grid/CN=B")).isFalse();
    }
}
