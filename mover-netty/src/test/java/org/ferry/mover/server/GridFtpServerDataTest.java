package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPFile;
import org.junit.jupiter.api.Test;

/** Data commands; needs the data transfer process ({@code org.ferry.mover.data}). */
class GridFtpServerDataTest extends ServerTestSupport {

    private static byte[] random(int n, long seed) {
        byte[] data = new byte[n];
        new Random(seed).nextBytes(data);
        return data;
    }

    @Test
    void streamRetrAndStorWithRestart() throws Exception {
        login();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
        byte[] data = random(1_000_000, 1);
        Files.write(root.resolve("src.bin"), data);

        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        assertThat(ftp.retrieveFile("/src.bin", whole)).isTrue();
        assertThat(whole.toByteArray()).isEqualTo(data);

        ftp.setRestartOffset(400_000);
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        assertThat(ftp.retrieveFile("src.bin", tail)).isTrue();
        assertThat(tail.toByteArray()).isEqualTo(Arrays.copyOfRange(data, 400_000, data.length));

        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(Arrays.copyOf(data, 300_000))))
                .isTrue();
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(Arrays.copyOf(data, 300_000));
        ftp.setRestartOffset(300_000);
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(Arrays.copyOfRange(data, 300_000, data.length))))
                .isTrue();
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(data);

        assertThat(ftp.appendFile("up.bin", new ByteArrayInputStream(new byte[] {9, 8})))
                .isTrue();
        assertThat(Files.size(root.resolve("up.bin"))).isEqualTo(data.length + 2L);
        assertThat(ftp.appendFile("fresh.bin", new ByteArrayInputStream(new byte[] {7})))
                .isTrue();
        assertThat(Files.readAllBytes(root.resolve("fresh.bin"))).containsExactly(7);

        // overwrite without REST truncates
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(new byte[] {1, 2, 3})))
                .isTrue();
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).containsExactly(1, 2, 3);
        assertThat(ftp.retrieveFile("/missing", new ByteArrayOutputStream())).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertAlive();
    }

    @Test
    void activeModeAndEpsvWork() throws Exception {
        login();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        byte[] data = random(70_000, 2);
        Files.write(root.resolve("a.bin"), data);
        ftp.enterLocalActiveMode();
        ftp.setActiveExternalIPAddress("127.0.0.1");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ftp.retrieveFile("a.bin", out)).isTrue();
        assertThat(out.toByteArray()).isEqualTo(data);
        ftp.enterLocalPassiveMode();
        ftp.setUseEPSVwithIPv4(true);
        out.reset();
        assertThat(ftp.retrieveFile("a.bin", out)).isTrue();
        assertThat(out.toByteArray()).isEqualTo(data);
    }

    @Test
    void listings() throws Exception {
        login();
        ftp.enterLocalPassiveMode();
        Files.createDirectory(root.resolve("sub"));
        Files.writeString(root.resolve("one.txt"), "1");
        Files.writeString(root.resolve("two.dat"), "22");
        Files.createSymbolicLink(root.resolve("escape"), outside.resolve("secret.txt"));

        // the escaping link is listed as Type=OS.unix=slink (RFC 3659 section 7.5.1), not followed;
        // Commons Net does not parse that type and drops the entry
        FTPFile[] mlsd = ftp.mlistDir("/");
        assertThat(mlsd).extracting(FTPFile::getName).containsExactly("one.txt", "sub", "two.dat");
        assertThat(mlsd[0].getSize()).isEqualTo(1);
        assertThat(mlsd[0].isFile()).isTrue();
        assertThat(mlsd[1].isDirectory()).isTrue();

        assertThat(ftp.listNames("/")).containsExactly("escape", "one.txt", "sub", "two.dat");
        assertThat(ftp.listNames("*.txt")).containsExactly("one.txt");
        FTPFile[] list = ftp.listFiles("/");
        assertThat(list).extracting(FTPFile::getName).contains("one.txt", "sub", "two.dat");
        assertThat(Arrays.stream(list)
                        .filter(f -> f.getName().equals("two.dat"))
                        .findFirst()
                        .orElseThrow()
                        .getSize())
                .isEqualTo(2);
        assertThat(ftp.mlistDir("/one.txt")).isEmpty();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.mlistDir("/..")).isEmpty();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertAlive();
    }

    @Test
    void escapingRetrAndStorAreRefused() throws Exception {
        login();
        ftp.enterLocalPassiveMode();
        Files.createSymbolicLink(root.resolve("passwd"), java.nio.file.Path.of("/etc/passwd"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        assertThat(ftp.retrieveFile("passwd", new ByteArrayOutputStream())).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.retrieveFile("../outside/secret.txt", new ByteArrayOutputStream()))
                .isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.storeFile("out/new.txt", new ByteArrayInputStream(new byte[] {1})))
                .isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.storeFile("/../outside/secret.txt", new ByteArrayInputStream(new byte[] {1})))
                .isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("top secret");
        try (var files = Files.list(outside)) {
            assertThat(files.count()).isEqualTo(1);
        }
        assertAlive();
    }

    @Test
    void modeEDirectionIsEnforced() throws Exception {
        login();
        Files.writeString(root.resolve("f.txt"), "x");
        assertThat(send("MODE E")).isEqualTo(200);
        assertThat(send("PASV")).isEqualTo(227);
        assertThat(send("RETR f.txt")).isEqualTo(503);
        assertAlive();
    }

    private static final Pattern PASV = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

    @Test
    void modeEStoreWithTwoConnectionsSendsMarkers() throws Exception {
        login();
        byte[] data = random(3 * 65536 + 123, 3);
        assertThat(send("TYPE I")).isEqualTo(200);
        assertThat(send("MODE E")).isEqualTo(200);
        assertThat(send("PASV")).isEqualTo(227);
        Matcher m = PASV.matcher(ftp.getReplyString());
        assertThat(m.find()).isTrue();
        int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        assertThat(ftp.sendCommand("STOR", "modee.bin")).isEqualTo(150);
        // connections: each sends alternate 64 KiB blocks out of order, then EOD; the first also EOF(2)
        try (Socket a = new Socket("127.0.0.1", port);
                Socket b = new Socket("127.0.0.1", port)) {
            DataOutputStream outA = new DataOutputStream(a.getOutputStream());
            DataOutputStream outB = new DataOutputStream(b.getOutputStream());
            List<long[]> blocks = new ArrayList<>();
            for (long off = 0; off < data.length; off += 65536) {
                blocks.add(new long[] {off, Math.min(65536, data.length - off)});
            }
            for (int i = blocks.size() - 1; i >= 0; i--) {
                DataOutputStream out = i % 2 == 0 ? outA : outB;
                out.writeByte(0);
                out.writeLong(blocks.get(i)[1]);
                out.writeLong(blocks.get(i)[0]);
                out.write(data, (int) blocks.get(i)[0], (int) blocks.get(i)[1]);
            }
            outA.flush();
            outB.flush();
            // the transfer stays open until the EODs below: wait for its first periodic marker
            // (every 200 ms in tests), however long the machine takes to send it
            List<String> replies = new ArrayList<>();
            ftp.getReply();
            replies.add(ftp.getReplyString());
            assertThat(ftp.getReplyString()).startsWith("112-Perf Marker");
            outA.writeByte(0x40 | 0x08);
            outA.writeLong(0);
            outA.writeLong(2);
            outB.writeByte(0x08);
            outB.writeLong(0);
            outB.writeLong(0);
            outA.flush();
            outB.flush();
            while (true) {
                ftp.getReply();
                replies.add(ftp.getReplyString());
                if (ftp.getReplyCode() >= 200) {
                    break;
                }
            }
            String all = String.join("", replies);
            assertThat(ftp.getReplyCode()).as(all).isEqualTo(226);
            assertThat(all)
                    .contains("112-Perf Marker")
                    .contains(" Stripe Bytes Transferred: " + data.length)
                    .contains("112 End.")
                    .contains("111 Range Marker 0-" + data.length);
        }
        assertThat(Files.readAllBytes(root.resolve("modee.bin"))).isEqualTo(data);
        assertAlive();
    }

    @Test
    void modeERetrieveOpensParallelConnectionsToPort() throws Exception {
        login();
        byte[] data = random(2_000_000, 4);
        Files.write(root.resolve("big.bin"), data);
        assertThat(send("TYPE I")).isEqualTo(200);
        assertThat(send("MODE E")).isEqualTo(200);
        assertThat(send("OPTS RETR Parallelism=3,3,3;")).isEqualTo(200);
        ExecutorService pool = Executors.newCachedThreadPool();
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            int port = listener.getLocalPort();
            assertThat(send("PORT 127,0,0,1," + (port >> 8) + "," + (port & 0xff)))
                    .isEqualTo(200);
            byte[] received = new byte[data.length];
            Future<Integer> receiving = pool.submit(() -> receiveModeE(listener, received, pool));
            assertThat(send("RETR big.bin")).isEqualTo(150);
            ftp.getReply();
            assertThat(ftp.getReplyCode()).isEqualTo(226);
            assertThat(receiving.get()).isEqualTo(3);
            assertThat(received).isEqualTo(data);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Accepts connections until the EOF count is known and that many EODs arrived; returns the count. */
    private static int receiveModeE(ServerSocket listener, byte[] into, ExecutorService pool) throws Exception {
        int[] eofCount = {-1};
        int[] eods = {0};
        List<Socket> sockets = new ArrayList<>();
        try {
            while (true) {
                synchronized (eofCount) {
                    if (eofCount[0] >= 0 && eods[0] >= eofCount[0]) {
                        return eofCount[0];
                    }
                    if (eofCount[0] >= 0 && sockets.size() >= eofCount[0]) {
                        eofCount.wait(100);
                        continue;
                    }
                }
                listener.setSoTimeout(200);
                Socket s;
                try {
                    s = listener.accept();
                } catch (java.net.SocketTimeoutException e) {
                    continue;
                }
                sockets.add(s);
                pool.submit(() -> {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    while (true) {
                        int desc;
                        try {
                            desc = in.readUnsignedByte();
                        } catch (EOFException e) {
                            return null;
                        }
                        long count = in.readLong();
                        long offset = in.readLong();
                        if ((desc & 0x40) != 0) {
                            synchronized (eofCount) {
                                eofCount[0] = (int) offset;
                            }
                        } else if (count > 0) {
                            in.readFully(into, (int) offset, (int) count);
                        }
                        if ((desc & 0x08) != 0) {
                            synchronized (eofCount) {
                                eods[0]++;
                                eofCount.notifyAll();
                            }
                            return null;
                        }
                    }
                });
            }
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void aborDuringTransferAnswers426Then226() throws Exception {
        login();
        assertThat(send("TYPE I")).isEqualTo(200);
        assertThat(send("PASV")).isEqualTo(227);
        Matcher m = PASV.matcher(ftp.getReplyString());
        assertThat(m.find()).isTrue();
        int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        try (Socket data = new Socket("127.0.0.1", port)) {
            assertThat(send("STOR slow.bin")).isEqualTo(150);
            data.getOutputStream().write(new byte[1000]);
            data.getOutputStream().flush();
            awaitSize(root.resolve("slow.bin"), 1000); // the transfer is running, not just announced
            ftp.sendCommand("ABOR");
            assertThat(ftp.getReplyCode()).isEqualTo(426);
            ftp.getReply();
            assertThat(ftp.getReplyCode()).isEqualTo(226);
        }
        assertAlive();
    }

    @Test
    void aborClosesTheDataConnection() throws Exception {
        login();
        assertThat(send("PASV")).isEqualTo(227);
        Matcher m = PASV.matcher(ftp.getReplyString());
        assertThat(m.find()).isTrue();
        int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        try (Socket data = new Socket("127.0.0.1", port)) {
            data.setSoTimeout(5_000);
            assertThat(send("STOR slow.bin")).isEqualTo(150);
            // Abort only once the server has accepted the connection and read from it: a connection
            // still in the listener's accept queue is reset (RST) when ABOR closes the listener, and
            // one with unread bytes is reset too, where this test expects an orderly close (FIN).
            data.getOutputStream().write(new byte[1000]);
            data.getOutputStream().flush();
            awaitSize(root.resolve("slow.bin"), 1000);
            ftp.sendCommand("ABOR");
            assertThat(ftp.getReplyCode()).isEqualTo(426);
            ftp.getReply();
            InputStream in = data.getInputStream();
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    /** Waits until {@code file} holds {@code size} bytes (the server wrote what we sent). */
    private static void awaitSize(java.nio.file.Path file, long size) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!(Files.exists(file) && Files.size(file) >= size)) {
            assertThat(System.nanoTime())
                    .as("%s did not reach %d bytes", file, size)
                    .isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
