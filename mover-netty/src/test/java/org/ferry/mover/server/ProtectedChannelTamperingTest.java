package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.RawGsiSession;
import org.ferry.mover.testing.TamperingRelay;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A protected control channel under attack (RFC 2228 section 5.3, RFC 2228 sections 3 and 4 (MIC, ENC; 631-633)), with
 * Ferry's server on an ephemeral port and real GSI contexts: a MIC or ENC command whose TLS record
 * was altered, a replayed one and a truncated one get a clear {@code 535 Failed security check}
 * and the connection closes, the command not executed, the server serving the next session; a
 * token that is not base64 gets 501 and the session goes on; and on the client side a 632 reply
 * altered on the way (by a relay in the middle) fails the waiting command with an IOException
 * that says so.
 */
class ProtectedChannelTamperingTest {
    @TempDir
    Path tmp;

    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Tamper", Map.of("Honest User", "honest"));
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    RawGsiSession login() throws Exception {
        RawGsiSession session =
                new RawGsiSession(ferry.port(), ferry.pki().proxy("Honest User"), ferry.pki(), DelegationMode.NONE);
        session.login();
        return session;
    }

    /** The server still serves: a new session logs in and runs a protected command. */
    void assertServerStillServes() throws Exception {
        try (RawGsiSession next = login()) {
            assertThat(next.command("PWD")).isEqualTo("257 \"/\" is current directory.");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MIC", "ENC"})
    void anAlteredCommandGets535AndIsNotExecuted(String verb) throws Exception {
        try (RawGsiSession s = login()) {
            byte[] record = s.wrap("MKD /made-by-" + verb);
            record[5 + (record.length - 5) / 2] ^= 0x01; // one bit of the ciphertext, past the record header
            s.send(verb + " " + Base64.getEncoder().encodeToString(record));
            assertThat(s.readLine())
                    .as("clear: nothing can be protected any more")
                    .startsWith("535 Failed security check: cannot verify protected message: ");
            assertThat(s.readLine()).as("the server closed the session").isNull();
        }
        assertThat(ferry.root().resolve("made-by-" + verb)).doesNotExist();
        assertServerStillServes();
    }

    @Test
    void aReplayedCommandGets535() throws Exception {
        try (RawGsiSession s = login()) {
            String mkd = s.protect("MKD /once");
            s.send(mkd);
            assertThat(s.unwrap(s.readLine())).startsWith("257 ");
            Files.delete(ferry.root().resolve("once"));
            s.send(mkd);
            assertThat(s.readLine()).startsWith("535 Failed security check: cannot verify protected message: ");
            assertThat(s.readLine()).isNull();
        }
        assertThat(ferry.root().resolve("once")).doesNotExist();
        assertServerStillServes();
    }

    @Test
    void aTruncatedCommandGets535() throws Exception {
        try (RawGsiSession s = login()) {
            byte[] record = s.wrap("MKD /half");
            s.send("ENC " + Base64.getEncoder().encodeToString(Arrays.copyOf(record, record.length / 2)));
            assertThat(s.readLine())
                    .startsWith("535 Failed security check: cannot verify protected message: truncated TLS record");
            assertThat(s.readLine()).isNull();
        }
        assertThat(ferry.root().resolve("half")).doesNotExist();
        assertServerStillServes();
    }

    @Test
    void aTokenThatIsNotBase64Gets501AndTheSessionGoesOn() throws Exception {
        try (RawGsiSession s = login()) {
            s.send("MIC not*base64!");
            assertThat(s.unwrap(s.readLine()))
                    .isEqualTo("501 Syntax error in parameters or arguments: MIC token is not base64.");
            assertThat(s.command("MKD /after")).startsWith("257 ");
        }
        assertThat(ferry.root().resolve("after")).isDirectory();
    }

    @Test
    void anAlteredReplyFailsTheClientsCommandWithAClearIoException() throws Exception {
        try (TamperingRelay relay = new TamperingRelay(ferry.port());
                GridFtpClient client = new GridFtpClient(
                        Duration.ofSeconds(30), ferry.clientSecurity(ferry.pki().proxy("Honest User")));
                GridFtpSession session = client.open(GridFtpUrl.parse("gsiftp://localhost:" + relay.port() + "/"))) {
            session.makeDirectory("/before");
            relay.tamperWithNextProtectedReply();
            assertThatThrownBy(() -> session.makeDirectory("/during"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("protected 632 reply from localhost/127.0.0.1:" + relay.port())
                    .hasMessageContaining("failed the security check (altered or replayed on the way?)")
                    .hasMessageContaining("cannot verify protected message");
            assertThatThrownBy(() -> session.makeDirectory("/after"))
                    .as("the session is over")
                    .isInstanceOf(IOException.class);
        }
        assertThat(ferry.root().resolve("before")).isDirectory();
        assertThat(ferry.root().resolve("after")).doesNotExist();
    }
}
