package org.ferry.mover.server.dtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.commons.net.ftp.FTPClient;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.stripe.LinkAuth;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Striping end to end on loopback: two head nodes, each driving two data nodes over the real
 * internal TCP link (SC'05 striped server layout), a striped third-party transfer between them
 * (SPAS on the destination, SPOR on the source), and single-stripe SPAS/SPOR on a plain server.
 */
class StripedTransferTest {

    private static final LinkAuth SECRET =
            new LinkAuth("striping-test-secret-0123456789".getBytes(StandardCharsets.UTF_8));
    private static final int MIB = 1 << 20;

    @TempDir
    Path tmp;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        closing.add(resource);
        return resource;
    }

    /** A head node with {@code n} in-JVM data nodes on its root; returns the head. */
    private GridFtpServer head(Path root, List<DataNode> nodes, int n) throws IOException {
        List<InetSocketAddress> links = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DataNode node = closeLater(DataNode.start(InetAddress.getLoopbackAddress(), 0, root, SECRET));
            nodes.add(node);
            links.add(node.address());
        }
        return closeLater(GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withAnonymousAllowed(true), DtpFactory.dataNodes(links, SECRET)));
    }

    private GridFtpSession open(GridFtpClient client, GridFtpServer server) throws IOException {
        return client.open(GridFtpUrl.parse("ftp://anonymous:x@127.0.0.1:" + server.port() + "/"));
    }

    @Test
    void thirdPartyStripedTransferBetweenTwoHeadsGoesThroughEveryDataNode() throws Exception {
        Path sourceRoot = Files.createDirectory(tmp.resolve("src"));
        Path destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        byte[] data = new byte[64 * MIB];
        new Random(42).nextBytes(data);
        Files.write(sourceRoot.resolve("big.bin"), data);
        List<DataNode> sourceNodes = new ArrayList<>();
        List<DataNode> destinationNodes = new ArrayList<>();
        GridFtpServer source = head(sourceRoot, sourceNodes, 2);
        GridFtpServer destination = head(destinationRoot, destinationNodes, 2);
        try (LeakCapture leaks = LeakCapture.open()) {
            try (GridFtpClient client = new GridFtpClient();
                    GridFtpSession src = open(client, source);
                    GridFtpSession dst = open(client, destination)) {
                long moved = src.sendStriped("/big.bin", dst, "/copy.bin", 2, 256 * 1024, TransferListener.NONE);
                assertThat(moved).isEqualTo(data.length);
            }
            byte[] copy = Files.readAllBytes(destinationRoot.resolve("copy.bin"));
            assertThat(MessageDigest.getInstance("SHA-256").digest(copy))
                    .isEqualTo(MessageDigest.getInstance("SHA-256").digest(data));
            // 256 blocks of 256 KiB alternate between the two stripes: each node moved exactly half
            for (DataNode node : sourceNodes) {
                assertThat(node.bytesTransferred()).as("source data node").isEqualTo(32L * MIB);
            }
            for (DataNode node : destinationNodes) {
                assertThat(node.bytesTransferred()).as("destination data node").isEqualTo(32L * MIB);
            }
            // the same, as the head reports it to an operator
            assertThat(siteStripes(source))
                    .contains(
                            " 0 127.0.0.1:" + sourceNodes.get(0).port() + " bytes=33554432",
                            " 1 127.0.0.1:" + sourceNodes.get(1).port() + " bytes=33554432");
            assertThat(siteStripes(destination)).contains(" bytes=33554432", "Stripes: 2");
            leaks.assertNoLeaks();
        }
    }

    @Test
    void headSendsToAPlainServerAndReceivesFromOneWithOneEofPerReceiver() throws Exception {
        Path headRoot = Files.createDirectory(tmp.resolve("head"));
        Path plainRoot = Files.createDirectory(tmp.resolve("plain"));
        byte[] data = new byte[5 * MIB + 12345];
        new Random(7).nextBytes(data);
        Files.write(headRoot.resolve("a.bin"), data);
        List<DataNode> nodes = new ArrayList<>();
        GridFtpServer striped = head(headRoot, nodes, 2);
        GridFtpServer plain = closeLater(
                GridFtpServer.start(GridFtpServerConfig.loopback(plainRoot).withAnonymousAllowed(true)));
        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession head = open(client, striped);
                GridFtpSession single = open(client, plain)) {
            // two sending stripes, one receiving address (SPAS of a single DTP): one EOF announcing 2 x 3 EODs
            head.sendStriped("/a.bin", single, "/b.bin", 3, 100_000, TransferListener.NONE);
            assertSameContent(plainRoot.resolve("b.bin"), data);
            // and back: one sending stripe, two receiving data nodes, each with its own EOF
            single.sendStriped("/b.bin", head, "/c.bin", 2, 64 * 1024, TransferListener.NONE);
            assertSameContent(headRoot.resolve("c.bin"), data);
            // a plain MODE E third-party send from the head (PORT) also goes through the data nodes
            head.sendTo("/a.bin", single, "/d.bin", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertSameContent(plainRoot.resolve("d.bin"), data);
        }
        assertThat(nodes).allSatisfy(node -> assertThat(node.bytesTransferred()).isPositive());
    }

    @Test
    void singleProcessServerAnswersSpasWithOneStripeAndFailuresComeBackAsReplies() throws Exception {
        Path a = Files.createDirectory(tmp.resolve("a"));
        Path b = Files.createDirectory(tmp.resolve("b"));
        byte[] data = new byte[3 * MIB + 1];
        new Random(3).nextBytes(data);
        Files.write(a.resolve("x.bin"), data);
        GridFtpServer first =
                closeLater(GridFtpServer.start(GridFtpServerConfig.loopback(a).withAnonymousAllowed(true)));
        GridFtpServer second =
                closeLater(GridFtpServer.start(GridFtpServerConfig.loopback(b).withAnonymousAllowed(true)));
        List<DataNode> nodes = new ArrayList<>();
        GridFtpServer striped = head(Files.createDirectory(tmp.resolve("h")), nodes, 2);
        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession src = open(client, first);
                GridFtpSession dst = open(client, second);
                GridFtpSession headSession = open(client, striped)) {
            src.sendStriped("/x.bin", dst, "/y.bin", 4, 1 << 20, TransferListener.NONE);
            assertSameContent(b.resolve("y.bin"), data);
            // a missing file fails on the data nodes' side of the link and comes back as 550
            assertThatThrownBy(() ->
                            headSession.sendStriped("/missing.bin", dst, "/z.bin", 1, 1024, TransferListener.NONE))
                    .isInstanceOf(IOException.class);
        }
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", first.port());
        try {
            ftp.login("anonymous", "x");
            ftp.sendCommand("FEAT");
            assertThat(ftp.getReplyString()).contains(" SPAS", " SPOR");
            ftp.sendCommand("MODE E");
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(229);
            assertThat(ftp.getReplyStrings()).hasSize(3).endsWith("229 End");
            assertThat(ftp.sendCommand("SPOR 127,0,0,1,4,1 |1|127.0.0.1|2000|"))
                    .isEqualTo(200); // ports >= 1024 (RFC 2577)
            assertThat(ftp.sendCommand("SPOR 1,2,3")).isEqualTo(501);
            assertThat(ftp.sendCommand("OPTS RETR StripeLayout=Blocked;BlockSize=0;"))
                    .isEqualTo(500);
        } finally {
            ftp.disconnect();
        }
    }

    @Test
    void aDataNodeRefusesAHeadWithoutTheSecret() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("r"));
        DataNode node = closeLater(DataNode.start(InetAddress.getLoopbackAddress(), 0, root, SECRET));
        LinkAuth wrong = new LinkAuth("not-the-striping-secret-at-all".getBytes(StandardCharsets.UTF_8));
        GridFtpServer impostor = closeLater(GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withAnonymousAllowed(true),
                DtpFactory.dataNodes(List.of(node.address()), wrong)));
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", impostor.port());
        try {
            ftp.login("anonymous", "x");
            ftp.sendCommand("MODE E");
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(425);
        } finally {
            ftp.disconnect();
        }
    }

    @Test
    void onAHeadPlainModeETransfersRunOnTheDataNodesToo() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("h"));
        byte[] data = new byte[4 * MIB + 3];
        new Random(9).nextBytes(data);
        Path local = Files.write(tmp.resolve("local.bin"), data);
        List<DataNode> nodes = new ArrayList<>();
        GridFtpServer striped = head(root, nodes, 2);
        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession session = open(client, striped)) {
            // upload: PASV in MODE E opens the listener on a data node
            session.upload(local, "/up.bin", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertSameContent(root.resolve("up.bin"), data);
            assertThat(nodes.get(0).bytesTransferred() + nodes.get(1).bytesTransferred())
                    .isEqualTo(data.length);
            // download: PORT in MODE E, sent by both data nodes, one EOF for the client's listener
            Path back = tmp.resolve("back.bin");
            session.download("/up.bin", back, TransferOptions.extendedBlock(3), TransferListener.NONE);
            assertSameContent(back, data);
            // listings stay in the PI (stream mode over the PI's own data channel)
            assertThat(session.list("/")).extracting(f -> f.name()).contains("up.bin");
        }
        assertThat(nodes).allSatisfy(node -> assertThat(node.bytesTransferred()).isPositive());
    }

    @Test
    void consecutiveModeETransfersThatTheClientBelievesCachedWorkThroughAHead() throws Exception {
        Path headRoot = Files.createDirectory(tmp.resolve("h"));
        Path plainRoot = Files.createDirectory(tmp.resolve("p"));
        byte[] data = new byte[2 * MIB + 9];
        new Random(17).nextBytes(data);
        Files.write(headRoot.resolve("a.bin"), data);
        Files.write(plainRoot.resolve("b.bin"), data);
        List<DataNode> nodes = new ArrayList<>();
        GridFtpServer striped = head(headRoot, nodes, 2);
        GridFtpServer plain = closeLater(
                GridFtpServer.start(GridFtpServerConfig.loopback(plainRoot).withAnonymousAllowed(true)));
        try (GridFtpClient client = new GridFtpClient();
                GridFtpSession head = open(client, striped);
                GridFtpSession single = open(client, plain)) {
            // the second and third transfer of each pair skip PASV/PORT (MODE E connection reuse)
            for (int i = 0; i < 3; i++) {
                head.sendTo(
                        "/a.bin",
                        single,
                        "/from-head-" + i + ".bin",
                        TransferOptions.extendedBlock(2),
                        TransferListener.NONE);
                assertSameContent(plainRoot.resolve("from-head-" + i + ".bin"), data);
            }
            for (int i = 0; i < 3; i++) {
                single.sendTo(
                        "/b.bin",
                        head,
                        "/to-head-" + i + ".bin",
                        TransferOptions.extendedBlock(2),
                        TransferListener.NONE);
                assertSameContent(headRoot.resolve("to-head-" + i + ".bin"), data);
            }
            for (int i = 0; i < 2; i++) {
                head.sendStriped("/a.bin", single, "/striped-" + i + ".bin", 2, 100_000, TransferListener.NONE);
                assertSameContent(plainRoot.resolve("striped-" + i + ".bin"), data);
            }
        }
    }

    @Test
    void aSenderKeepingItsModeEConnectionSendsTheNextFileThroughItIntoAHead() throws Exception {
        // a MODE E sender keeps its data connection after EOD (GFD.020 caching) and the client skips
        // PASV for the next file: the data node must keep its end open, not close it after each file
        // (the close raced the sender's next write: "cached MODE E data connection ... was closed")
        Path root = Files.createDirectory(tmp.resolve("h"));
        GridFtpServer striped = head(root, new ArrayList<>(), 1);
        byte[] one = new byte[100_003];
        byte[] two = new byte[70_001];
        new Random(31).nextBytes(one);
        new Random(32).nextBytes(two);
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", striped.port());
        ftp.setSoTimeout(10_000);
        try {
            ftp.login("anonymous", "x");
            assertThat(ftp.sendCommand("TYPE I")).isEqualTo(200);
            assertThat(ftp.sendCommand("MODE E")).isEqualTo(200);
            assertThat(ftp.sendCommand("PASV")).isEqualTo(227);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)")
                    .matcher(ftp.getReplyString());
            assertThat(m.find()).isTrue();
            int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
            try (java.net.Socket data = new java.net.Socket("127.0.0.1", port)) {
                java.io.DataOutputStream out = new java.io.DataOutputStream(data.getOutputStream());
                for (int i = 0; i < 2; i++) {
                    byte[] file = i == 0 ? one : two;
                    assertThat(ftp.sendCommand("STOR", "/kept-" + i + ".bin")).isIn(125, 150);
                    out.writeByte(0);
                    out.writeLong(file.length);
                    out.writeLong(0);
                    out.write(file);
                    out.writeByte(0x40 | 0x08); // EOD and EOF: one connection, kept open
                    out.writeLong(0);
                    out.writeLong(1);
                    out.flush();
                    do {
                        ftp.getReply();
                    } while (ftp.getReplyCode() < 200);
                    assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(226);
                    assertThat(Files.readAllBytes(root.resolve("kept-" + i + ".bin")))
                            .isEqualTo(file);
                }
            }
        } finally {
            ftp.disconnect();
        }
    }

    @Test
    void aborDuringAStripedStorAbortsEveryStripeOnItsDataNode() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("h"));
        List<InetSocketAddress> links = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            links.add(closeLater(DataNode.start(InetAddress.getLoopbackAddress(), 0, root, SECRET))
                    .address());
        }
        // 112 markers every 100 ms tell the test when both stripes are receiving
        GridFtpServer striped = closeLater(GridFtpServer.start(
                GridFtpServerConfig.loopback(root)
                        .withAnonymousAllowed(true)
                        .withMarkerInterval(java.time.Duration.ofMillis(100)),
                DtpFactory.dataNodes(links, SECRET)));
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", striped.port());
        List<java.net.Socket> sockets = new ArrayList<>();
        try {
            ftp.login("anonymous", "x");
            assertThat(ftp.sendCommand("TYPE I")).isEqualTo(200);
            assertThat(ftp.sendCommand("MODE E")).isEqualTo(200);
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(229);
            String[] lines = ftp.getReplyStrings();
            for (String line : List.of(lines).subList(1, lines.length - 1)) {
                String[] n = line.strip().split(",");
                sockets.add(new java.net.Socket("127.0.0.1", Integer.parseInt(n[4]) * 256 + Integer.parseInt(n[5])));
            }
            assertThat(sockets).hasSize(2);
            assertThat(ftp.sendCommand("STOR slow.bin")).isEqualTo(150);
            for (int i = 0; i < sockets.size(); i++) {
                // one whole block of 1000 bytes, then a header announcing 1000 more and only 10 of them
                java.nio.ByteBuffer blocks = java.nio.ByteBuffer.allocate(17 + 1000 + 17 + 10)
                        .put((byte) 0)
                        .putLong(1000)
                        .putLong(2000L * i)
                        .put(new byte[1000])
                        .put((byte) 0)
                        .putLong(1000)
                        .putLong(2000L * i + 1000);
                sockets.get(i).getOutputStream().write(blocks.array());
                sockets.get(i).getOutputStream().flush();
                sockets.get(i).setSoTimeout(10_000);
            }
            // ABOR only once each data node took its connection into the transfer: its stripe reports bytes
            java.util.Set<String> receiving = new java.util.HashSet<>();
            while (receiving.size() < 2) {
                int marked = ftp.getReply();
                assertThat(marked).as(ftp.getReplyString()).isIn(111, 112);
                String marker = ftp.getReplyString();
                java.util.regex.Matcher index =
                        java.util.regex.Pattern.compile("Stripe Index: (\\d+)").matcher(marker);
                java.util.regex.Matcher bytes = java.util.regex.Pattern.compile("Stripe Bytes Transferred: (\\d+)")
                        .matcher(marker);
                if (index.find() && bytes.find() && Long.parseLong(bytes.group(1)) > 0) {
                    receiving.add(index.group(1));
                }
            }
            int reply = ftp.sendCommand("ABOR");
            while (reply == 111 || reply == 112) {
                reply = ftp.getReply();
            }
            assertThat(reply).as(ftp.getReplyString()).isEqualTo(426);
            assertThat(ftp.getReply()).as(ftp.getReplyString()).isEqualTo(226);
            for (java.net.Socket socket : sockets) {
                assertThat(socket.getInputStream().read())
                        .as("data node closed its stripe")
                        .isEqualTo(-1);
            }
            assertThat(ftp.sendCommand("NOOP")).isEqualTo(200);
        } finally {
            for (java.net.Socket socket : sockets) {
                socket.close();
            }
            ftp.disconnect();
        }
    }

    @Test
    void restartedStripedRetrSendsOnlyTheRestAtFileOffsets() throws Exception {
        Path headRoot = Files.createDirectory(tmp.resolve("h"));
        Path plainRoot = Files.createDirectory(tmp.resolve("p"));
        byte[] data = new byte[3 * MIB + 77];
        new Random(13).nextBytes(data);
        Files.write(headRoot.resolve("r.bin"), data);
        int done = MIB + 5; // the receiver already has [0, done); the rest of its file is garbage
        byte[] partial = new byte[data.length];
        System.arraycopy(data, 0, partial, 0, done);
        Files.write(plainRoot.resolve("r.bin"), partial);
        GridFtpServer striped = head(headRoot, new ArrayList<>(), 2);
        GridFtpServer plain = closeLater(
                GridFtpServer.start(GridFtpServerConfig.loopback(plainRoot).withAnonymousAllowed(true)));
        FTPClient src = new FTPClient();
        FTPClient dst = new FTPClient();
        src.connect("127.0.0.1", striped.port());
        dst.connect("127.0.0.1", plain.port());
        try {
            for (FTPClient ftp : List.of(src, dst)) {
                ftp.login("anonymous", "x");
                assertThat(ftp.sendCommand("TYPE I")).isEqualTo(200);
                assertThat(ftp.sendCommand("MODE E")).isEqualTo(200);
            }
            assertThat(dst.sendCommand("SPAS")).isEqualTo(229);
            String address = dst.getReplyStrings()[1].strip();
            assertThat(src.sendCommand("OPTS RETR Parallelism=2,2,2;StripeLayout=Blocked;BlockSize=100000;"))
                    .isEqualTo(200);
            assertThat(src.sendCommand("SPOR " + address)).isEqualTo(200);
            // REST goes right before the transfer verb, to both sides (reference 2.6)
            assertThat(src.sendCommand("REST 0-" + done)).isEqualTo(350);
            assertThat(dst.sendCommand("REST 0-" + done)).isEqualTo(350);
            assertThat(dst.sendCommand("STOR r.bin")).isEqualTo(150);
            assertThat(src.sendCommand("RETR r.bin")).isEqualTo(150);
            assertThat(src.getReply()).isEqualTo(226);
            int code;
            do {
                code = dst.getReply();
            } while (code == 111 || code == 112);
            assertThat(code).isEqualTo(226);
        } finally {
            src.disconnect();
            dst.disconnect();
        }
        // compared by digest: a byte-array mismatch message would print megabytes
        assertThat(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(plainRoot.resolve("r.bin"))))
                .isEqualTo(MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void aDataNodeLostDuringATransferFailsItWith426() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("h"));
        List<DataNode> nodes = new ArrayList<>();
        GridFtpServer striped = head(root, nodes, 2);
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", striped.port());
        try {
            ftp.login("anonymous", "x");
            assertThat(ftp.sendCommand("MODE E")).isEqualTo(200);
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(229);
            assertThat(ftp.sendCommand("STOR lost.bin")).isEqualTo(150);
            nodes.get(1).close();
            // 426 once its data connections are open, 425 when the node goes before they are (seen under load)
            assertThat(ftp.getReply()).isIn(425, 426);
            assertThat(ftp.getReplyString()).contains("data node");
            // the remaining data node still serves the next request; the lost one makes SPAS fail cleanly
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(425);
            assertThat(ftp.sendCommand("NOOP")).isEqualTo(200);
        } finally {
            ftp.disconnect();
        }
    }

    @Test
    void appeAfterSpasAppendsAtTheOldSizeOnEveryStripe() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("h"));
        Files.write(root.resolve("log.bin"), new byte[] {1, 2, 3});
        GridFtpServer striped = head(root, new ArrayList<>(), 2);
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", striped.port());
        try {
            ftp.login("anonymous", "x");
            assertThat(ftp.sendCommand("TYPE I")).isEqualTo(200);
            assertThat(ftp.sendCommand("MODE E")).isEqualTo(200);
            assertThat(ftp.sendCommand("SPAS")).isEqualTo(229);
            String[] lines = ftp.getReplyStrings();
            assertThat(ftp.sendCommand("APPE log.bin")).isEqualTo(150);
            for (int stripe = 0; stripe < 2; stripe++) {
                String[] n = lines[1 + stripe].strip().split(",");
                try (java.net.Socket socket =
                        new java.net.Socket("127.0.0.1", Integer.parseInt(n[4]) * 256 + Integer.parseInt(n[5]))) {
                    // each stripe: one 2-byte block at its own offset, then EOF|EOD announcing 1 connection
                    java.nio.ByteBuffer frames = java.nio.ByteBuffer.allocate(17 + 2 + 17)
                            .put((byte) 0)
                            .putLong(2)
                            .putLong(2L * stripe)
                            .put((byte) (10 + stripe))
                            .put((byte) (20 + stripe))
                            .put((byte) 0x48)
                            .putLong(0)
                            .putLong(1);
                    socket.getOutputStream().write(frames.array());
                    socket.getOutputStream().flush();
                    // closing after EOD is safe: the frames are in the data node's socket buffer,
                    // and the data node keeps its end open for a next transfer (MODE E caching)
                }
            }
            int code;
            do {
                code = ftp.getReply(); // the final 112 per stripe and 111 come before 226
            } while (code == 111 || code == 112);
            assertThat(code).isEqualTo(226);
        } finally {
            ftp.disconnect();
        }
        assertThat(Files.readAllBytes(root.resolve("log.bin"))).containsExactly(1, 2, 3, 10, 20, 11, 21);
    }

    /** Compares by digest: a byte-array mismatch message would print megabytes. */
    private static void assertSameContent(Path file, byte[] expected) throws Exception {
        assertThat(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)))
                .as("content of %s", file)
                .isEqualTo(MessageDigest.getInstance("SHA-256").digest(expected));
    }

    private static String siteStripes(GridFtpServer server) throws IOException {
        FTPClient ftp = new FTPClient();
        ftp.connect("127.0.0.1", server.port());
        try {
            ftp.login("anonymous", "x");
            assertThat(ftp.sendCommand("SITE STRIPES")).isEqualTo(200);
            return ftp.getReplyString();
        } finally {
            ftp.disconnect();
        }
    }
}
