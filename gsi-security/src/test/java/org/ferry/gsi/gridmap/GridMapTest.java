package org.ferry.gsi.gridmap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Grid-mapfile syntax and DN comparison as Globus gss_assist does them (reference 4.4). */
class GridMapTest {
    static final String FILE = """
            # comment line
               # indented comment

            "/O=Grid/OU=GlobusTest/CN=Jane Doe" jdoe
            "/O=Grid/OU=GlobusTest/CN=John \\"Q\\" Public" jqp , public,  guest
            "/DC=org/DC=example/UID=smith/CN=Ann Smith" asmith
            "/O=Grid/CN=Mail User/Email=mail@example.org" mailer
            /O=Grid/CN=Unquoted unquoted
            "/O=Grid/OU=GlobusTest/CN=Jane Doe" janeshared
            """;

    @Test
    void mapsQuotedDnsWithEscapesAndUserLists() throws IOException {
        GridMap map = GridMap.parse(FILE);
        assertThat(map.users("/O=Grid/OU=GlobusTest/CN=Jane Doe")).containsExactly("jdoe", "janeshared");
        assertThat(map.users("/O=Grid/OU=GlobusTest/CN=John \"Q\" Public")).containsExactly("jqp", "public", "guest");
        assertThat(map.users("/O=Grid/CN=Unquoted")).containsExactly("unquoted");
        assertThat(map.defaultUser("/O=Grid/OU=GlobusTest/CN=Jane Doe")).contains("jdoe");
    }

    @Test
    void comparesCaseInsensitivelyWithEmailAndUidNormalisation() throws IOException {
        GridMap map = GridMap.parse(FILE);
        assertThat(map.users("/o=grid/ou=globustest/cn=JANE DOE")).containsExactly("jdoe", "janeshared");
        assertThat(map.users("/DC=org/DC=example/USERID=smith/CN=Ann Smith")).containsExactly("asmith");
        assertThat(map.users("/O=Grid/CN=Mail User/emailAddress=mail@example.org"))
                .containsExactly("mailer");
        assertThat(map.users("/O=Grid/CN=Mail User/E=MAIL@example.org")).containsExactly("mailer");
        assertThat(map.users("/O=Grid/OU=GlobusTest/CN=Jane Doe2")).isEmpty();
    }

    @Test
    void authorizerUsesDefaultMappingAndChecksRequestedUser() throws Exception {
        GridMapAuthorizer auth = new GridMapAuthorizer(GridMap.parse(FILE));
        String john = "/O=Grid/OU=GlobusTest/CN=John \"Q\" Public";
        assertThat(auth.authorize(john, GridMapAuthorizer.GLOBUS_MAPPING)).isEqualTo("jqp");
        assertThat(auth.authorize(john, null)).isEqualTo("jqp");
        assertThat(auth.authorize(john, "guest")).isEqualTo("guest");
        assertThatThrownBy(() -> auth.authorize(john, "root"))
                .isInstanceOf(AuthorizationException.class)
                .hasMessage("Invalid user: " + john + " is not allowed to log in as root by grid-mapfile <text>");
    }

    @Test
    void dnNotInTheGridMapIsRefusedWithGlobusWording() throws Exception {
        GridMapAuthorizer auth = new GridMapAuthorizer(GridMap.parse(FILE));
        assertThatThrownBy(() -> auth.authorize("/O=Grid/OU=Other/CN=Stranger", ":globus-mapping:"))
                .isInstanceOf(AuthorizationException.class)
                .hasMessage("Gridmap lookup failure: Could not map /O=Grid/OU=Other/CN=Stranger"
                        + " (no entry in grid-mapfile <text>)");
    }

    @Test
    void malformedLinesNameTheLine() {
        assertThatThrownBy(() -> GridMap.parse("\"/O=Grid/CN=x\" \n"))
                .isInstanceOf(IOException.class)
                .hasMessage("<text>:1: no local user after DN /O=Grid/CN=x");
        assertThatThrownBy(() -> GridMap.parse("# c\n\"/O=Grid/CN=x user\n"))
                .isInstanceOf(IOException.class)
                .hasMessage("<text>:2: unterminated quoted DN");
        assertThatThrownBy(() -> GridMap.parse("\"/O=Grid/CN=x\" a,,b\n"))
                .isInstanceOf(IOException.class)
                .hasMessage("<text>:1: bad user list 'a,,b'");
    }
}
