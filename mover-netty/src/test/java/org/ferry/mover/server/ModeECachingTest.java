package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MODE E data connection caching (GFD.020; GFD.020 "Extended Block Mode", data connection reuse) driven by hand over
 * raw sockets, so the test controls exactly which connections carry what: reuse answers 125, early
 * (pipelined) data of the next file waits for its STOR, a new PASV/PORT or a parallelism change
 * drops connections.
 */
class ModeECachingTest {

    private static final Pattern PASV = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

    @TempDir
    Path root;

    GridFtpServer server;
    Socket control;
    BufferedReader in;
    OutputStream out;

    @BeforeEach
    void start() throws IOException {
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofSeconds(30)));
        control = new Socket("127.0.0.1", server.port());
        control.setSoTimeout(10_000);
        in = new BufferedReader(new InputStreamReader(control.getInputStream(), StandardCharsets.US_ASCII));
        out = control.getOutputStream();
        assertThat(reply()).startsWith("220");
        assertThat(command("USER anonymous")).startsWith("331");
        assertThat(command("PASS x@")).startsWith("230");
        assertThat(command("TYPE I")).startsWith("200");
        assertThat(command("MODE E")).startsWith("200");
    }

    @AfterEach
    void stop() throws IOException {
        control.close();
        server.close();
    }

    @Test
    void storesReuseCachedConnectionsAndPipelinedDataWaitsForItsStor() throws Exception {
        byte[][] files = {random(700_000, 1), random(300_001, 2), random(5, 3), random(200_000, 4)};
        String pasv = command("PASV");
        int port = pasvPort(pasv);
        send("STOR /f0");
        try (Socket a = new Socket("127.0.0.1", port);
                Socket b = new Socket("127.0.0.1", port)) {
            assertThat(reply()).startsWith("150");
            sendModeE(files[0], a, b, 2);
            assertThat(finalReply()).startsWith("226");

            send("STOR /f1");
            assertThat(reply()).isEqualTo("125 Beginning transfer; reusing existing data connection.");
            sendModeE(files[1], a, b, 2);
            assertThat(finalReply()).startsWith("226");

            // pipelined: both commands and both files' data at once; f3's blocks arrive on the
            // connections while f2 is still being received
            send("STOR /f2\r\nSTOR /f3");
            sendModeE(files[2], a, b, 2);
            sendModeE(files[3], b, a, 2);
            assertThat(reply()).startsWith("125");
            assertThat(finalReply()).startsWith("226");
            assertThat(reply()).startsWith("125");
            assertThat(finalReply()).startsWith("226");
        }
        for (int i = 0; i < files.length; i++) {
            assertThat(Files.readAllBytes(root.resolve("f" + i))).as("f" + i).isEqualTo(files[i]);
        }
        // a new PASV drops the cache: the next STOR waits for new connections and says 150
        port = pasvPort(command("PASV"));
        send("STOR /f4");
        try (Socket c = new Socket("127.0.0.1", port)) {
            assertThat(reply()).startsWith("150");
            sendModeE(files[1], c, c, 1);
            assertThat(finalReply()).startsWith("226");
        }
        assertThat(Files.readAllBytes(root.resolve("f4"))).isEqualTo(files[1]);
    }

    @Test
    void retrievesReuseConnectionsAndAParallelismDropClosesExtrasWithClose() throws Exception {
        byte[] one = random(1_500_000, 5);
        byte[] two = random(100_000, 6);
        Files.write(root.resolve("one"), one);
        Files.write(root.resolve("two"), two);
        assertThat(command("OPTS RETR Parallelism=2,2,2;")).startsWith("200");
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            assertThat(command(portTo(listener))).startsWith("200");
            send("RETR /one");
            assertThat(reply()).startsWith("150");
            List<Socket> sockets = List.of(listener.accept(), listener.accept());
            byte[] got = new byte[one.length];
            assertThat(readModeE(sockets, got)).containsExactly(2L);
            assertThat(got).isEqualTo(one);
            assertThat(finalReply()).startsWith("226");

            send("RETR /two");
            assertThat(reply()).startsWith("125");
            got = new byte[two.length];
            assertThat(readModeE(sockets, got)).containsExactly(2L);
            assertThat(got).isEqualTo(two);
            assertThat(finalReply()).startsWith("226");
            listener.setSoTimeout(300);
            assertThat(acceptsNothing(listener)).isTrue();

            assertThat(command("OPTS RETR Parallelism=1,1,1;")).startsWith("200");
            send("RETR /two");
            assertThat(reply()).startsWith("125");
            // one connection carries the file and EOF(1); the other gets CLOSE|EOD and is closed
            int closed = 0;
            got = new byte[two.length];
            List<Socket> open = new ArrayList<>();
            for (Socket s : sockets) {
                DataInputStream data = new DataInputStream(s.getInputStream());
                s.setSoTimeout(5_000);
                int desc = data.readUnsignedByte();
                long count = data.readLong();
                long offset = data.readLong();
                if ((desc & 0x04) != 0) {
                    assertThat(count).isZero();
                    assertThat(data.read()).isEqualTo(-1);
                    closed++;
                } else {
                    if (count > 0) {
                        data.readFully(got, (int) offset, (int) count);
                    }
                    open.add(s);
                    if ((desc & 0x08) == 0) {
                        assertThat(readModeE(List.of(s), got)).containsExactly(1L);
                    }
                }
            }
            assertThat(closed).isEqualTo(1);
            assertThat(got).isEqualTo(two);
            assertThat(finalReply()).startsWith("226");
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    /**
     * A sender may drop a cached connection (CLOSE|EOD, then close) right after the blocks of a
     * pipelined next file: those blocks, waiting while the previous file ends, still make that file.
     */
    @Test
    void aConnectionDroppedRightAfterTheNextFilesBlocksStillDeliversThem() throws Exception {
        byte[] first = random(400_000, 7);
        byte[] second = random(250_000, 8);
        int port = pasvPort(command("PASV"));
        send("STOR /first\r\nSTOR /second");
        try (Socket a = new Socket("127.0.0.1", port)) {
            sendModeE(first, a, a, 1);
            sendModeE(second, a, a, 1);
            DataOutputStream data = new DataOutputStream(a.getOutputStream());
            data.writeByte(0x0C); // CLOSE|EOD, no count: globus's way of dropping a cached connection
            data.writeLong(0);
            data.writeLong(0);
            data.flush();
            a.shutdownOutput();
            assertThat(reply()).startsWith("150");
            assertThat(finalReply()).startsWith("226");
            assertThat(reply()).startsWith("125");
            assertThat(finalReply()).startsWith("226");
        }
        assertThat(Files.readAllBytes(root.resolve("first"))).isEqualTo(first);
        assertThat(Files.readAllBytes(root.resolve("second"))).isEqualTo(second);
    }

    /**
     * A RETR refused before it starts (550, no such file) sent nothing: the cached connections stay,
     * and the next RETR reuses them without a new PORT.
     */
    @Test
    void aRefusedRetrKeepsTheCachedConnections() throws Exception {
        byte[] one = random(300_000, 10);
        Files.write(root.resolve("one"), one);
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            assertThat(command(portTo(listener))).startsWith("200");
            send("RETR /one");
            assertThat(reply()).startsWith("150");
            try (Socket s = listener.accept()) {
                byte[] got = new byte[one.length];
                assertThat(readModeE(List.of(s), got)).containsExactly(1L);
                assertThat(finalReply()).startsWith("226");
                assertThat(command("RETR /missing")).startsWith("550");
                send("RETR /one");
                assertThat(reply()).isEqualTo("125 Beginning transfer; reusing existing data connection.");
                got = new byte[one.length];
                assertThat(readModeE(List.of(s), got)).containsExactly(1L);
                assertThat(got).isEqualTo(one);
                assertThat(finalReply()).startsWith("226");
            }
        }
    }

    @Test
    void trevSetsOrSilencesTheMarkersWhileReceiving() throws Exception {
        assertThat(command("TREV RESTART 0")).startsWith("200");
        assertThat(command("TREV PERF=0")).startsWith("200");
        assertThat(command("TREV CKSM 1")).startsWith("501");
        assertThat(command("TREV RESTART x")).startsWith("501");
        byte[] file = random(300_000, 9);
        int port = pasvPort(command("PASV"));
        send("STOR /quiet");
        try (Socket a = new Socket("127.0.0.1", port)) {
            assertThat(reply()).startsWith("150");
            sendModeE(file, a, a, 1);
            assertThat(reply()).as("no 111/112 marker after TREV ... 0").startsWith("226");
        }
        assertThat(command("TREV RESTART 1")).startsWith("200");
        port = pasvPort(command("PASV"));
        send("STOR /marked");
        try (Socket a = new Socket("127.0.0.1", port)) {
            assertThat(reply()).startsWith("150");
            DataOutputStream out = new DataOutputStream(a.getOutputStream());
            out.writeByte(0);
            out.writeLong(file.length);
            out.writeLong(0);
            out.write(file);
            out.flush();
            // a transfer that outlasts the period gets its 111, and no 112 (silenced)
            assertThat(reply()).isEqualTo("111 Range Marker 0-300000");
            out.writeByte(0x48);
            out.writeLong(0);
            out.writeLong(1);
            out.flush();
            assertThat(reply()).startsWith("226");
            // a transfer shorter than the period: 226 alone says all of it is there (no final 111);
            // a long period, so that a stalled machine cannot make this one outlast it
            assertThat(command("TREV RESTART 30")).startsWith("200");
            send("STOR /short");
            assertThat(reply()).startsWith("125"); // the cached connection
            sendModeE(file, a, a, 1);
            assertThat(reply()).startsWith("226");
        }
        assertThat(Files.readAllBytes(root.resolve("marked"))).isEqualTo(file);
        assertThat(Files.readAllBytes(root.resolve("short"))).isEqualTo(file);
    }

    private static boolean acceptsNothing(ServerSocket listener) throws IOException {
        try (Socket unexpected = listener.accept()) {
            return unexpected == null;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }

    /**
     * Reads one transfer from {@code sockets} in turn (each until its EOD) into {@code into}.
     *
     * @return the EOF counts seen
     */
    private static List<Long> readModeE(List<Socket> sockets, byte[] into) throws IOException {
        List<Long> eofs = new ArrayList<>();
        for (Socket s : sockets) {
            s.setSoTimeout(10_000);
            DataInputStream data = new DataInputStream(s.getInputStream());
            while (true) {
                int desc = data.readUnsignedByte();
                long count = data.readLong();
                long offset = data.readLong();
                assertThat(desc & 0x04).as("no CLOSE while caching").isZero();
                if ((desc & 0x40) != 0) {
                    eofs.add(offset);
                } else if (count > 0) {
                    data.readFully(into, (int) offset, (int) count);
                }
                if ((desc & 0x08) != 0) {
                    break;
                }
            }
        }
        return eofs;
    }

    /** Sends {@code data} as 64 KiB blocks alternating over a and b, then EOD on both, EOF(eods) on a. */
    private static void sendModeE(byte[] data, Socket a, Socket b, int eods) throws IOException {
        DataOutputStream outA = new DataOutputStream(a.getOutputStream());
        DataOutputStream outB = new DataOutputStream(b.getOutputStream());
        int i = 0;
        for (int off = 0; off < data.length; off += 65536, i++) {
            int n = Math.min(65536, data.length - off);
            DataOutputStream o = i % 2 == 0 ? outA : outB;
            o.writeByte(0);
            o.writeLong(n);
            o.writeLong(off);
            o.write(data, off, n);
        }
        outA.writeByte(0x48);
        outA.writeLong(0);
        outA.writeLong(eods);
        if (b != a) {
            outB.writeByte(0x08);
            outB.writeLong(0);
            outB.writeLong(0);
        }
        outA.flush();
        outB.flush();
    }

    /** @return the PORT command (RFC 959 section 4.1.2) that sends the server's data connections to {@code listener} */
    private static String portTo(ServerSocket listener) {
        int port = listener.getLocalPort();
        return "PORT 127,0,0,1," + (port >> 8) + "," + (port & 0xff);
    }

    private static int pasvPort(String reply) {
        Matcher m = PASV.matcher(reply);
        assertThat(m.find()).as(reply).isTrue();
        return Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
    }

    private static byte[] random(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }

    private void send(String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private String command(String line) throws IOException {
        send(line);
        return finalReply();
    }

    /** The next reply (all lines of a multi-line one joined with \n). */
    private String reply() throws IOException {
        String first = in.readLine();
        assertThat(first).as("reply").isNotNull();
        if (first.length() > 3 && first.charAt(3) == '-') {
            StringBuilder all = new StringBuilder(first);
            String line;
            do {
                line = in.readLine();
                all.append('\n').append(line);
            } while (!(line.length() > 3 && line.startsWith(first.substring(0, 3)) && line.charAt(3) == ' '));
            return all.toString();
        }
        return first;
    }

    /** The next reply that is not a 111/112 marker. */
    private String finalReply() throws IOException {
        while (true) {
            String r = reply();
            if (!r.startsWith("111") && !r.startsWith("112")) {
                return r;
            }
        }
    }
}
