package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Partial transfers with the Ferry client (ERET P / ESTO A, GFD.020 "ERET"/"ESTO"). */
class PartialTransferTest extends TwoFerryServers {

    byte[] data = new byte[5_000_000];
    byte[] old = new byte[5_000_000];

    @BeforeEach
    void start() throws IOException {
        new Random(1).nextBytes(data);
        new Random(2).nextBytes(old);
        Files.write(sourceRoot.resolve("f"), data);
    }

    private byte[] spliced(byte[] base, int offset, int length) {
        byte[] expected = base.clone();
        System.arraycopy(data, offset, expected, offset, length);
        return expected;
    }

    @Test
    void thirdPartyAndTwoPartyWindowsInBothModes() throws Exception {
        try (GridFtpSession src = open(source);
                GridFtpSession dst = open(destination)) {
            for (TransferOptions options :
                    new TransferOptions[] {TransferOptions.STREAM, TransferOptions.extendedBlock(3)}) {
                Files.write(destinationRoot.resolve("t"), old);
                assertThat(src.sendPartTo("/f", 1_234_567, 2_000_000, dst, "/t", options, TransferListener.NONE))
                        .isEqualTo(2_000_000);
                assertThat(Files.readAllBytes(destinationRoot.resolve("t")))
                        .isEqualTo(spliced(old, 1_234_567, 2_000_000));

                Path local = tmp.resolve("local-" + options.mode());
                Files.write(local, old);
                src.downloadPart("/f", 4_000_000, 10_000_000, local, options, TransferListener.NONE);
                assertThat(Files.readAllBytes(local)).isEqualTo(spliced(old, 4_000_000, 1_000_000));

                Files.write(destinationRoot.resolve("u"), old);
                Files.write(local, data);
                dst.uploadPart(local, 77, 300_000, "/u", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(destinationRoot.resolve("u"))).isEqualTo(spliced(old, 77, 300_000));
            }
            assertThat(Arrays.equals(data, old)).isFalse();
        }
    }
}
