package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DCAU and PROT between Ferry's client and Ferry's server (GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)): every
 * combination moves the same bytes both ways, PROT P with four parallel streams included; a data
 * connection presenting another identity is refused with a clear message; and a throughput figure
 * per protection level at p=1 and p=4 is printed (not asserted).
 */
class DataChannelSecurityTest {
    @TempDir
    Path tmp;

    FerryGsiServer ferry;
    Path root;
    GsiCredential user;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Dcau", Map.of("Data User", "data", "Other User", "other"));
        root = ferry.root();
        user = ferry.pki().proxy("Data User");
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    GridFtpUrl url() {
        return ferry.url();
    }

    @Test
    void everyDcauAndProtCombinationMovesTheSameBytes() throws Exception {
        byte[] data = new byte[2_500_000];
        new Random(5).nextBytes(data);
        Path local = tmp.resolve("local.bin");
        Files.write(local, data);
        List<TransferOptions> cells = List.of(
                TransferOptions.extendedBlock(4).withProtection(ProtectionLevel.PRIVATE),
                TransferOptions.STREAM.withProtection(ProtectionLevel.PRIVATE),
                TransferOptions.extendedBlock(2).withProtection(ProtectionLevel.SAFE),
                TransferOptions.extendedBlock(4), // default: DCAU A, PROT C
                TransferOptions.STREAM,
                TransferOptions.extendedBlock(3).withDataChannelAuthentication(DataChannelAuthentication.NONE),
                TransferOptions.extendedBlock(2)
                        .withDataChannelAuthentication(DataChannelAuthentication.subject(user.identity()))
                        .withProtection(ProtectionLevel.PRIVATE));
        try (LeakCapture leaks = LeakCapture.open();
                GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(user));
                GridFtpSession session = client.open(url())) {
            int i = 0;
            for (TransferOptions options : cells) {
                String name = "/f" + i++ + ".bin";
                assertThat(session.upload(local, name, options, TransferListener.NONE))
                        .as(options + " up")
                        .isEqualTo(data.length);
                assertThat(Files.readAllBytes(root.resolve(name.substring(1))))
                        .as(options + " up")
                        .isEqualTo(data);
                Path back = tmp.resolve("back" + i + ".bin");
                assertThat(session.download(name, back, options, TransferListener.NONE))
                        .as(options + " down")
                        .isEqualTo(data.length);
                assertThat(Files.readAllBytes(back)).as(options + " down").isEqualTo(data);
            }
            assertThat(session.list("/")).hasSize(cells.size()); // listing under the last setting
            leaks.assertNoLeaks();
        }
    }

    @Test
    void emptyFilesAndListingsInStreamModeUnderEveryProtection() throws Exception {
        // In stream mode the end of the data is the close of the connection: a sender with nothing
        // to send closes at once, and that close must wait for the data channel handshake.
        Files.createDirectory(root.resolve("empty-dir"));
        Files.createFile(root.resolve("empty.bin"));
        Path local = Files.createFile(tmp.resolve("empty-local.bin"));
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(user));
                GridFtpSession session = client.open(url())) {
            for (ProtectionLevel level : ProtectionLevel.values()) {
                TransferOptions options = TransferOptions.STREAM.withProtection(level);
                Path back = tmp.resolve("empty-back-" + level.code());
                assertThat(session.download("/empty.bin", back, options, TransferListener.NONE))
                        .as(level + " down")
                        .isZero();
                assertThat(back).as(level + " down").isEmptyFile();
                assertThat(session.upload(local, "/empty-up-" + level.code(), options, TransferListener.NONE))
                        .as(level + " up")
                        .isZero();
                assertThat(root.resolve("empty-up-" + level.code()))
                        .as(level + " up")
                        .isEmptyFile();
            }
            assertThat(session.list("/empty-dir")).as("listing: DCAU A, PROT C").isEmpty();
        }
    }

    @Test
    void protectedConnectionsAreCachedUntilProtectionChanges() throws Exception {
        byte[] data = new byte[700_000];
        new Random(9).nextBytes(data);
        Path local = tmp.resolve("cached.bin");
        Files.write(local, data);
        TransferOptions priv = TransferOptions.extendedBlock(3).withProtection(ProtectionLevel.PRIVATE);
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(user));
                GridFtpSession opened = client.open(url())) {
            DefaultGridFtpSession session = (DefaultGridFtpSession) opened;
            session.upload(local, "/a.bin", priv, TransferListener.NONE);
            int setups = session.dataSetups();
            session.upload(local, "/b.bin", priv, TransferListener.NONE); // the cached TLS connections
            assertThat(session.dataSetups()).isEqualTo(setups);
            session.upload(local, "/c.bin", priv.withProtection(ProtectionLevel.CLEAR), TransferListener.NONE);
            assertThat(session.dataSetups()).as("PROT changed: new connections").isEqualTo(setups + 1);
            session.upload(local, "/d.bin", priv.withProtection(ProtectionLevel.CLEAR), TransferListener.NONE);
            assertThat(session.dataSetups()).isEqualTo(setups + 1);
        }
        for (String name : List.of("a.bin", "b.bin", "c.bin", "d.bin")) {
            assertThat(Files.readAllBytes(root.resolve(name))).as(name).isEqualTo(data);
        }
    }

    @Test
    void dataConnectionFromAnotherIdentityIsRefused() throws Exception {
        // The control channel logs in (and delegates) as Data User; the data connections present
        // Other User's proxy. The server's DCAU A wants Data User and refuses the connection.
        GsiClientSecurity login = ferry.clientSecurity(user);
        GsiClientSecurity other = ferry.clientSecurity(ferry.pki().proxy("Other User"));
        Path local = tmp.resolve("x.bin");
        Files.write(local, new byte[100_000]);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        try {
            DataChannels data = new DataChannels(group, DataChannels.DEFAULT_BLOCK_SIZE_BYTES, Duration.ofSeconds(20));
            ControlChannel control = ControlChannel.connect(group, "localhost", ferry.port(), Duration.ofSeconds(20));
            try (GridFtpSession session = DefaultGridFtpSession.login(
                    url(), control, data, login.newInitiator("localhost", ferry.port()), other)) {
                // S: we accept the server's Data User; the server still wants Data User from us.
                TransferOptions options = TransferOptions.extendedBlock(2)
                        .withDataChannelAuthentication(DataChannelAuthentication.subject(user.identity()));
                assertThatThrownBy(() -> session.upload(local, "/x.bin", options, TransferListener.NONE))
                        .satisfies(e -> System.out.println("refused as expected: " + e.getMessage()))
                        .hasMessageContaining("426")
                        .hasMessageContaining("data channel authentication")
                        .hasMessageContaining("/O=Grid/OU=Dcau/CN=Other User is not the expected identity");
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
        assertThat(root.resolve("x.bin"))
                .satisfiesAnyOf(
                        p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyFile());
    }

    @Test
    void printsThroughputPerProtectionLevel() throws Exception {
        int mib = 64;
        byte[] data = new byte[mib << 20];
        new Random(1).nextBytes(data);
        Path local = tmp.resolve("big.bin");
        Files.write(local, data);
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(60), ferry.clientSecurity(user));
                GridFtpSession session = client.open(url())) {
            StringBuilder table = new StringBuilder("Ferry client -> Ferry server, " + mib + " MiB upload, loopback, "
                    + Runtime.getRuntime().availableProcessors() + " cores, Netty leak detection "
                    + io.netty.util.ResourceLeakDetector.getLevel()
                    + " (costly per 16 KiB TLS record; not a benchmark, see issue 4 part 7):\n");
            for (ProtectionLevel level : ProtectionLevel.values()) {
                for (int p : new int[] {1, 4}) {
                    TransferOptions options = TransferOptions.extendedBlock(p).withProtection(level);
                    long start = System.nanoTime();
                    session.upload(local, "/big.bin", options, TransferListener.NONE);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    table.append(String.format("  PROT %s p=%d: %7.1f MiB/s%n", level.code(), p, mib / seconds));
                }
            }
            System.out.print(table);
        }
        assertThat(Files.size(root.resolve("big.bin"))).isEqualTo(data.length);
    }
}
