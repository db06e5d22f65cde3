package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.RawGsiSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order of a GSI login as globus-gridftp-server enforces it (RFC 959 section 4.1.1, RFC 2228 section 3; RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism
 * step 2): a command other than ADAT in the middle of the ADAT exchange, and before AUTH any
 * command on a server whose only login is GSI, get {@code 530 Must perform GSSAPI
 * authentication.} and the session lives on; a server that also allows clear-text logins lets them
 * through before AUTH, but not during the exchange.
 */
class GsiLoginSequenceTest {
    private static final String MUST = "530 Must perform GSSAPI authentication.";

    @TempDir
    Path tmp;

    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Sequence", Map.of("Seq User", "seq"));
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    RawGsiSession connect(int port) throws Exception {
        return new RawGsiSession(port, ferry.pki().proxy("Seq User"), ferry.pki(), DelegationMode.LIMITED);
    }

    @Test
    void otherCommandsDuringTheAdatExchangeGet530AndTheExchangeGoesOn() throws Exception {
        try (RawGsiSession s = connect(ferry.port())) {
            assertThat(s.auth()).isEqualTo("334 Using authentication type; ADAT must follow.");
            assertThat(s.adat()).startsWith("335 ADAT=");
            for (String command : List.of("PWD", "FEAT", "USER anonymous", "PASS x", "AUTH GSSAPI", "ADAT", "BOGUS")) {
                s.send(command);
                assertThat(s.readLine()).as(command).isEqualTo(MUST);
            }
            String line;
            do {
                line = s.adat();
            } while (line.startsWith("335 "));
            assertThat(line).isEqualTo("235 GSSAPI Authentication successful.");
            assertThat(s.command("USER :globus-mapping:")).startsWith("331 ");
            assertThat(s.command("PASS dummy")).isEqualTo("230 User seq logged in.");
            assertThat(s.command("PWD")).isEqualTo("257 \"/\" is current directory.");
        }
    }

    @Test
    void aGsiOnlyServerWantsAuthBeforeAnythingElse() throws Exception {
        try (RawGsiSession s = connect(ferry.port())) {
            for (String command : List.of("FEAT", "USER anonymous", "PASS x", "SYST", "ADAT Zm9v", "LIST")) {
                s.send(command);
                assertThat(s.readLine()).as(command).isEqualTo(MUST);
            }
            s.login();
            assertThat(s.command("SYST")).isEqualTo("215 UNIX Type: L8");
        }
        try (RawGsiSession s = connect(ferry.port())) {
            s.send("QUIT");
            assertThat(s.readLine()).isEqualTo("221 Goodbye.");
            assertThat(s.readLine()).isNull();
        }
    }

    @Test
    void withClearTextLoginsAllowedOnlyTheExchangeItselfIsGuarded() throws Exception {
        GridFtpServerConfig config = GridFtpServerConfig.loopback(ferry.root()).withAnonymousAllowed(true);
        try (GridFtpServer both = GridFtpServer.start(
                config, ferry.pki().serverSecurity(ferry.pki().gridMapLine("Seq User", "seq")))) {
            try (RawGsiSession s = connect(both.port())) {
                s.send("FEAT");
                assertThat(s.readLine()).startsWith("211-");
                while (!s.readLine().startsWith("211 ")) {
                    // the feature lines
                }
                assertThat(s.auth()).startsWith("334 ");
                assertThat(s.adat()).startsWith("335 ");
                s.send("USER anonymous");
                assertThat(s.readLine()).isEqualTo(MUST);
            }
            try (RawGsiSession s = connect(both.port())) {
                s.send("USER anonymous");
                assertThat(s.readLine()).startsWith("331 ");
                s.send("PASS me@example.org");
                assertThat(s.readLine()).startsWith("230 ");
            }
        }
    }
}
