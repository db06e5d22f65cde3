package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Ferry client reuses cached MODE E data connections (GFD.020 "Extended Block Mode", data connection reuse) for
 * consecutive uploads, downloads and third-party transfers between the same pair of Ferry servers:
 * one PASV/PORT for a run, bytes identical, also when the parallelism changes in between.
 */
class ModeECachingClientTest extends TwoFerryServers {

    @Test
    void consecutiveModeETransfersReuseConnections() throws Exception {
        byte[][] files = new byte[4][];
        for (int i = 0; i < files.length; i++) {
            files[i] = new byte[500_000 + i * 700_001];
            new Random(i).nextBytes(files[i]);
            Files.write(sourceRoot.resolve("f" + i), files[i]);
        }
        int[] parallelism = {4, 4, 2, 3};
        try (DefaultGridFtpSession src = open(source);
                DefaultGridFtpSession dst = open(destination)) {
            for (int i = 0; i < files.length; i++) {
                TransferOptions options = TransferOptions.extendedBlock(parallelism[i]);
                Path local = tmp.resolve("l" + i);
                src.download("/f" + i, local, options, TransferListener.NONE);
                assertThat(Files.readAllBytes(local)).as("download %d", i).isEqualTo(files[i]);
            }
            assertThat(src.dataSetups()).as("PORTs for 4 downloads").isEqualTo(1);
            for (int i = 0; i < files.length; i++) {
                dst.upload(
                        tmp.resolve("l" + i),
                        "/u" + i,
                        TransferOptions.extendedBlock(parallelism[i]),
                        TransferListener.NONE);
                assertThat(Files.readAllBytes(destinationRoot.resolve("u" + i)))
                        .as("upload %d", i)
                        .isEqualTo(files[i]);
            }
            assertThat(dst.dataSetups()).as("PASVs for 4 uploads").isEqualTo(1);
            for (int i = 0; i < files.length; i++) {
                src.sendTo(
                        "/f" + i, dst, "/t" + i, TransferOptions.extendedBlock(parallelism[i]), TransferListener.NONE);
                assertThat(Files.readAllBytes(destinationRoot.resolve("t" + i)))
                        .as("third-party %d", i)
                        .isEqualTo(files[i]);
            }
            assertThat(src.dataSetups())
                    .as("PORTs: 1 for downloads, 1 for third-party")
                    .isEqualTo(2);
            assertThat(dst.dataSetups())
                    .as("PASVs: 1 for uploads, 1 for third-party")
                    .isEqualTo(2);
            // a listing (stream mode) in between drops the cache; the next transfer sets up again
            dst.list("/");
            src.sendTo("/f0", dst, "/t9", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertThat(Files.readAllBytes(destinationRoot.resolve("t9"))).isEqualTo(files[0]);
            assertThat(dst.dataSetups()).isEqualTo(4);
        }
    }
}
