package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.RawGsiSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire rules of DCAU, PROT and PBSZ (GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)) on a GSI control channel driven
 * by hand: replies, errors, FEAT, and DCAU A refused without a delegated credential.
 */
class DataProtectionCommandsTest {
    @TempDir
    Path tmp;

    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Prot", Map.of("Prot User", "prot"));
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    RawGsiSession login(DelegationMode delegation) throws Exception {
        RawGsiSession session =
                new RawGsiSession(ferry.port(), ferry.pki().proxy("Prot User"), ferry.pki(), delegation);
        session.login();
        return session;
    }

    @Test
    void dcauProtAndPbszRepliesFollowGlobus() throws Exception {
        try (RawGsiSession s = login(DelegationMode.LIMITED)) {
            assertThat(s.command("FEAT")).contains("\r\nDCAU\r\n");
            assertThat(s.command("DCAU A")).isEqualTo("200 DCAU A.");
            assertThat(s.command("DCAU N")).isEqualTo("200 DCAU N.");
            assertThat(s.command("DCAU S /O=Grid/OU=Prot/CN=Prot User")).isEqualTo("200 DCAU S.");
            assertThat(s.command("DCAU S")).isEqualTo("501 DCAU S expected subject.");
            assertThat(s.command("DCAU X")).isEqualTo("504 Bad DCAU mode.");
            assertThat(s.command("PBSZ 1048576")).isEqualTo("200 PBSZ=1048576");
            assertThat(s.command("PBSZ 4294967296")).isEqualTo("501 Bad value for PBSZ: 4294967296");
            assertThat(s.command("PBSZ x")).isEqualTo("501 Bad value for PBSZ: x");
            for (String level : List.of("C", "S", "P", "p")) {
                assertThat(s.command("PROT " + level))
                        .isEqualTo("200 Protection level set to " + level.toUpperCase() + ".");
            }
            assertThat(s.command("PROT E")).isEqualTo("536 E protection level not supported.");
        }
    }

    @Test
    void stripedTransfersRefuseAuthenticatedOrProtectedDataChannels() throws Exception {
        java.nio.file.Files.writeString(ferry.root().resolve("f"), "striped");
        try (RawGsiSession s = login(DelegationMode.LIMITED)) {
            assertThat(s.command("MODE E")).startsWith("200 ");
            assertThat(s.command("SPAS")).startsWith("229-");
            // DCAU A is in force after the delegating login: the stripes would carry plain data
            assertThat(s.command("STOR /s"))
                    .isEqualTo(
                            "504 Striped transfers carry no data channel authentication or protection: send DCAU N and PROT C first.");
            assertThat(s.command("SPOR 127,0,0,1,4,1")).startsWith("200 ");
            assertThat(s.command("RETR /f")).startsWith("504 Striped transfers carry no");
            assertThat(s.command("DCAU N")).isEqualTo("200 DCAU N.");
            assertThat(s.command("PROT P")).startsWith("200 ");
            assertThat(s.command("SPAS")).startsWith("229-");
            assertThat(s.command("STOR /s")).startsWith("504 Striped transfers carry no");
            assertThat(s.command("PROT C")).startsWith("200 ");
            String spas = s.command("SPAS");
            String[] numbers = spas.substring(spas.indexOf('\n') + 1)
                    .strip()
                    .split("\\s")[0]
                    .split(",");
            int port = Integer.parseInt(numbers[4]) * 256 + Integer.parseInt(numbers[5]);
            s.send(s.protect("STOR /s"));
            try (Socket data = new Socket("127.0.0.1", port)) {
                assertThat(s.unwrap(s.readLine())).startsWith("150 ");
                java.io.DataOutputStream out = new java.io.DataOutputStream(data.getOutputStream());
                out.writeByte(0);
                out.writeLong(7);
                out.writeLong(0);
                out.write("striped".getBytes(StandardCharsets.US_ASCII));
                out.writeByte(0x48); // EOD|EOF, one connection
                out.writeLong(0);
                out.writeLong(1);
                out.flush();
                String reply;
                do {
                    reply = s.unwrap(s.readLine()); // markers (1xx, multi-line) until the final reply
                } while (reply.startsWith("1") || !reply.matches("\\d{3} .*"));
                assertThat(reply).startsWith("226 ");
            }
            assertThat(java.nio.file.Files.readString(ferry.root().resolve("s")))
                    .isEqualTo("striped");
        }
    }

    @Test
    void anEmptyListingOverAFailedDataChannelHandshakeIsNotAnOk() throws Exception {
        // Nothing to send, so the server's sender closes at once; the peer then speaks no TLS at all.
        try (RawGsiSession s = login(DelegationMode.LIMITED)) {
            for (String level : List.of("C", "S", "P")) {
                assertThat(s.command("PROT " + level)).startsWith("200 ");
                String pasv = s.command("PASV");
                String[] numbers =
                        pasv.substring(pasv.indexOf('(') + 1, pasv.indexOf(')')).split(",");
                int port = Integer.parseInt(numbers[4]) * 256 + Integer.parseInt(numbers[5]);
                s.send(s.protect("MLSD /"));
                try (Socket data = new Socket("127.0.0.1", port)) {
                    assertThat(s.unwrap(s.readLine())).startsWith("150 ");
                    data.getOutputStream().write("no TLS here\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(s.unwrap(s.readLine()))
                            .as("PROT " + level)
                            .startsWith("426 ")
                            .contains("data channel authentication with");
                }
            }
        }
    }

    @Test
    void dcauANeedsADelegatedCredential() throws Exception {
        try (RawGsiSession s = login(DelegationMode.NONE)) {
            assertThat(s.command("DCAU A")).startsWith("504 DCAU A needs a delegated credential");
            assertThat(s.command("DCAU N")).isEqualTo("200 DCAU N.");
        }
    }
}
