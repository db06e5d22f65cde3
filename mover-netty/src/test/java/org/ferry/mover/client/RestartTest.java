package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Restarting third-party transfers from restart markers (GFD.020 "Restarting") between Ferry servers: only the missing ranges move, the partial file is completed
 * in place, and a transfer whose client died midway ends byte-identical after a resume.
 */
class RestartTest extends TwoFerryServers {

    byte[] data;

    /** The source sends at most 64 MiB/s, so a transfer is still running at its first marker. */
    @Override
    GridFtpServerConfig sourceConfig(Path root) {
        return super.sourceConfig(root).withDataRateLimit(64L << 20);
    }

    @Override
    GridFtpServerConfig destinationConfig(Path root) {
        return super.destinationConfig(root).withMarkerInterval(Duration.ofMillis(5));
    }

    @BeforeEach
    void start() throws IOException {
        data = new byte[48 << 20];
        new Random(11).nextBytes(data);
        Files.write(sourceRoot.resolve("big.bin"), data);
    }

    /** Writes the partial file a failed attempt would leave: {@code done} correct, the rest garbage. */
    private void partialDestination(List<ByteRange> done) throws IOException {
        byte[] garbage = new byte[data.length];
        java.util.Arrays.fill(garbage, (byte) 0x5a);
        for (ByteRange r : done) {
            System.arraycopy(data, (int) r.start(), garbage, (int) r.start(), (int) r.length());
        }
        Files.write(destinationRoot.resolve("big.bin"), garbage);
    }

    @Test
    void modeEResumeSendsOnlyTheMissingRangesIntoThePartialFile() throws Exception {
        List<ByteRange> done = List.of(
                new ByteRange(0, 1 << 20), new ByteRange(3 << 20, 5 << 20), new ByteRange(20_000_000, 30_000_001));
        partialDestination(done);
        RestartMarkers markers = new RestartMarkers();
        try (GridFtpSession src = open(source);
                GridFtpSession dst = open(destination)) {
            src.resumeSendTo("/big.bin", dst, "/big.bin", TransferOptions.extendedBlock(3), done, markers);
        }
        assertThat(Files.readAllBytes(destinationRoot.resolve("big.bin"))).isEqualTo(data);
        // what moved is exactly the complement of what was done
        assertThat(markers.ranges()).isEqualTo(ByteRange.missing(done, data.length));
    }

    @Test
    void streamResumeContinuesAfterThePrefix() throws Exception {
        List<ByteRange> done = List.of(new ByteRange(0, 7_777_777));
        partialDestination(done);
        try (GridFtpSession src = open(source);
                GridFtpSession dst = open(destination)) {
            src.resumeSendTo("/big.bin", dst, "/big.bin", TransferOptions.STREAM, done, TransferListener.NONE);
        }
        assertThat(Files.readAllBytes(destinationRoot.resolve("big.bin"))).isEqualTo(data);
    }

    @Test
    void aTransferWhoseClientDiesIsResumedFromItsMarkers() throws Exception {
        // 1.5 s at the source's rate limit: the kill lands midway however fast the machine is;
        // compared by digest, not in memory
        long size = 96L << 20;
        String expected = writeRandom(sourceRoot.resolve("huge.bin"), size, 13);
        GridFtpSession dst = open(destination);
        DefaultGridFtpSession src = (DefaultGridFtpSession) open(source);
        // the client dies at the first restart marker (from inside the marker callback, the earliest
        // moment): the source server aborts its RETR, the destination loses its data connections
        // before EOF and fails its STOR
        java.util.concurrent.atomic.AtomicBoolean killed = new java.util.concurrent.atomic.AtomicBoolean();
        RestartMarkers markers = new RestartMarkers(new TransferListener() {
            @Override
            public void onRestartMarker(String ranges) {
                if (killed.compareAndSet(false, true)) {
                    src.abandon();
                }
            }
        });
        assertThatThrownBy(() -> src.sendTo("/huge.bin", dst, "/huge.bin", TransferOptions.extendedBlock(1), markers))
                .isInstanceOf(IOException.class);
        assertThat(killed).isTrue();
        long committed = markers.bytesCommitted();
        assertThat(committed).isPositive().isLessThan(size);
        dst.close();

        RestartMarkers again = new RestartMarkers();
        try (GridFtpSession src2 = open(source);
                GridFtpSession dst2 = open(destination)) {
            src2.resumeSendTo(
                    "/huge.bin", dst2, "/huge.bin", TransferOptions.extendedBlock(4), markers.ranges(), again);
        }
        assertThat(Files.size(destinationRoot.resolve("huge.bin"))).isEqualTo(size);
        assertThat(md5(destinationRoot.resolve("huge.bin"))).isEqualTo(expected);
        assertThat(again.bytesCommitted()).isEqualTo(size - committed);
    }

    private static String writeRandom(Path file, long size, long seed) throws Exception {
        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        Random random = new Random(seed);
        byte[] chunk = new byte[1 << 20];
        try (var out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += chunk.length) {
                random.nextBytes(chunk);
                out.write(chunk);
                md5.update(chunk);
            }
        }
        return java.util.HexFormat.of().formatHex(md5.digest());
    }

    private static String md5(Path file) throws Exception {
        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        try (var in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 20];
            for (int n; (n = in.read(buffer)) > 0; ) {
                md5.update(buffer, 0, n);
            }
        }
        return java.util.HexFormat.of().formatHex(md5.digest());
    }
}
