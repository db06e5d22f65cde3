package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The FTP bounce attack (RFC 2577 section 3): PORT, EPRT and SPOR naming a port below 1024 are
 * refused with 504 and the server connects nowhere, while other hosts' unprivileged ports (the
 * third-party case) stay allowed. The session lives on after each refusal.
 */
class PortBounceTest extends ServerTestSupport {

    @Test
    void privilegedPortsAreRefusedWith504() throws Exception {
        login();
        assertThat(send("PORT 127,0,0,1,0,25")).isEqualTo(504);
        assertThat(send("PORT 127,0,0,1,3,255")).isEqualTo(504); // 1023
        assertThat(send("EPRT |1|127.0.0.1|22|")).isEqualTo(504);
        assertThat(send("EPRT |2|::1|1023|")).isEqualTo(504);
        assertThat(send("SPOR 127,0,0,1,200,10 127,0,0,1,0,80")).isEqualTo(504);
        assertThat(send("SPOR |1|127.0.0.1|443|")).isEqualTo(504);
        assertAlive();
        // malformed stays 501: the port check comes after parsing
        assertThat(send("PORT 127,0,0,1,999,1")).isEqualTo(501);
    }

    @Test
    void unprivilegedPortsOnOtherHostsStayAllowed() throws Exception {
        login();
        assertThat(send("PORT 127,0,0,1,4,0")).isEqualTo(200); // 1024
        assertThat(send("PORT 127,0,0,2,200,10")).isEqualTo(200); // another host: third-party
        assertThat(send("EPRT |1|127.0.0.3|5000|")).isEqualTo(200);
        assertThat(send("SPOR 127,0,0,2,200,10 |1|127.0.0.3|5001|")).isEqualTo(200);
    }

    @Test
    void aRefusedPortLeavesNoEndpointAndTheServerConnectsNowhere() throws Exception {
        Files.writeString(root.resolve("mail.txt"), "HELO victim\r\nMAIL FROM:<x@y>\r\n");
        // As root the test can listen where a victim service would; elsewhere it checks the reply only.
        try (ServerSocket victim = privilegedListener()) {
            login();
            int port = victim != null ? victim.getLocalPort() : 25;
            assertThat(send("PORT 127,0,0,1," + (port >> 8) + "," + (port & 0xff)))
                    .isEqualTo(504);
            assertThat(send("RETR mail.txt")).isEqualTo(425); // no endpoint: nothing was accepted
            if (victim != null) {
                victim.setSoTimeout(500);
                try {
                    victim.accept().close();
                    throw new AssertionError("the server connected to privileged port " + port);
                } catch (SocketTimeoutException expected) {
                    // nobody came
                }
            }
            assertAlive();
        }
    }

    /** @return a listener on a free port in 600..1023, or null where binding one is not allowed */
    private static ServerSocket privilegedListener() {
        for (int port = 1023; port >= 600; port--) {
            try {
                ServerSocket socket = new ServerSocket();
                try {
                    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    return socket;
                } catch (IOException e) {
                    socket.close();
                    if (e.getMessage() != null && e.getMessage().contains("Permission denied")) {
                        return null;
                    }
                }
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }
}
