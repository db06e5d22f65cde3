package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ALLO counts (RFC 959 section 4.1.3; RFC 959 section 4.1, GFD.020): the size is checked against
 * the real file system's usable space, refused with 552, and the next STOR/APPE/ESTO checks again
 * before it opens or truncates anything, so the destination stays as it was. A size that fits
 * changes nothing for the transfer; the size applies to one store only.
 */
class AlloTest extends ServerTestSupport {

    /** More than any file system here has: 4 EiB. */
    private static final long HUGE = 1L << 62;

    @Test
    void malformedAlloGets501AndTheSessionLivesOn() throws Exception {
        login();
        assertThat(send("ALLO")).isEqualTo(501);
        assertThat(send("ALLO x")).isEqualTo(501);
        assertThat(send("ALLO -5")).isEqualTo(501);
        assertThat(send("ALLO 1 R")).isEqualTo(501);
        assertThat(send("ALLO 99999999999999999999")).isEqualTo(501);
        assertThat(send("ALLO 1000")).isEqualTo(200);
        assertThat(ftp.getReplyString()).startsWith("200 ALLO command successful.");
        assertThat(send("ALLO 1000 R 100")).isEqualTo(200);
        assertAlive();
    }

    @Test
    void theSizeIsCheckedAgainstTheFileSystemsUsableSpace() throws Exception {
        login();
        long usable = Files.getFileStore(root).getUsableSpace();
        assertThat(send("ALLO " + usable / 2)).isEqualTo(200);
        assertThat(send("ALLO " + HUGE)).isEqualTo(552);
        assertThat(ftp.getReplyString()).contains("Insufficient storage space");
        assertAlive();
    }

    @Test
    void aStoreAfterARefusedAlloFailsBefore150AndLeavesTheFileAsItWas() throws Exception {
        Files.writeString(root.resolve("keep.bin"), "precious");
        login();
        assertThat(send("TYPE I")).isEqualTo(200);
        // a pipelining client sends STOR without waiting for ALLO's 552: the STOR must not start
        assertThat(send("ALLO " + HUGE)).isEqualTo(552);
        pasv();
        assertThat(send("STOR keep.bin")).isEqualTo(552);
        assertThat(root.resolve("keep.bin")).hasContent("precious"); // not truncated
        assertThat(send("ALLO " + HUGE)).isEqualTo(552);
        pasv();
        assertThat(send("APPE keep.bin")).isEqualTo(552);
        assertThat(send("ALLO " + HUGE)).isEqualTo(552);
        pasv();
        assertThat(send("ESTO A 3 keep.bin")).isEqualTo(552);
        assertThat(send("ALLO " + HUGE)).isEqualTo(552);
        pasv();
        assertThat(send("STOR new.bin")).isEqualTo(552);
        assertThat(root.resolve("new.bin")).doesNotExist();
        assertThat(root.resolve("keep.bin")).hasContent("precious");
        // the size applied to that one store: the next one runs
        upload("keep.bin", "replaced");
        assertThat(root.resolve("keep.bin")).hasContent("replaced");
    }

    @Test
    void aStoreWithinItsAllocationRuns() throws Exception {
        login();
        assertThat(send("TYPE I")).isEqualTo(200);
        assertThat(send("ALLO 5")).isEqualTo(200);
        upload("five.bin", "12345");
        assertThat(root.resolve("five.bin")).hasContent("12345");
    }

    /**
     * ALLO runs on the event loop like the PASV and STOR around it (globus-url-copy sends the three
     * per uploaded file), behind a login the worker answered: replies in the order of the commands,
     * and a refused size still stops the pipelined store before it touches the file. Many sessions,
     * because an overtaking reply needs the worker to finish between two commands of one read.
     */
    @Test
    void pipelinedAlloBetweenPasvAndStoreIsAnsweredInOrder() throws Exception {
        Files.writeString(root.resolve("keep.bin"), "precious");
        byte[] commands = ("USER alice\r\nPASS wonderland\r\nTYPE I\r\nPASV\r\nALLO " + HUGE
                        + "\r\nSTOR keep.bin\r\nALLO 5\r\nNOOP\r\nQUIT\r\n")
                .getBytes(StandardCharsets.UTF_8);
        for (int session = 0; session < 100; session++) {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(10_000);
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                assertThat(in.readLine()).startsWith("220 ");
                socket.getOutputStream().write(commands);
                List<String> codes = new ArrayList<>();
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.length() >= 4 && line.charAt(3) == ' ') {
                        codes.add(line.substring(0, 3)); // the last line of each reply
                    }
                }
                assertThat(codes)
                        .as("session %d", session)
                        .containsExactly("331", "230", "200", "227", "552", "552", "200", "200", "221");
            }
        }
        assertThat(root.resolve("keep.bin")).hasContent("precious");
    }

    /** Stream mode STOR of {@code content} over a PASV connection; expects 150 then 226. */
    private void upload(String name, String content) throws Exception {
        int port = pasv();
        try (Socket data = new Socket("127.0.0.1", port)) {
            assertThat(send("STOR " + name)).isEqualTo(150);
            OutputStream out = data.getOutputStream();
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(ftp.getReply()).isEqualTo(226);
    }
}
