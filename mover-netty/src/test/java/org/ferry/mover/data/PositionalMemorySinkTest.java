package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Blocks land at their offsets in any order; the limit holds. */
class PositionalMemorySinkTest {

    @Test
    void outOfOrderBlocksLandAtTheirOffsets() throws IOException {
        PositionalMemorySink sink = DataSink.toMemory(8 << 20);
        byte[] whole = new byte[3 * PositionalMemorySink.CHUNK_BYTES + 12_345]; // blocks across chunk edges
        for (int i = 0; i < whole.length; i++) {
            whole[i] = (byte) (i * 31);
        }
        int cut1 = PositionalMemorySink.CHUNK_BYTES - 100;
        int cut2 = 2 * PositionalMemorySink.CHUNK_BYTES + 7;
        sink.write(ByteBuffer.wrap(whole, cut2, whole.length - cut2), cut2); // last block first
        sink.write(ByteBuffer.wrap(whole, 0, cut1), 0);
        sink.write(ByteBuffer.wrap(whole, cut1, cut2 - cut1), cut1);
        assertThat(sink.length()).isEqualTo(whole.length);
        assertThat(sink.inputStream().readAllBytes()).isEqualTo(whole);
    }

    @Test
    void aBlockPastTheLimitFailsTheTransfer() throws IOException {
        PositionalMemorySink sink = DataSink.toMemory(1000);
        sink.write(ByteBuffer.allocate(1000), 0);
        assertThatThrownBy(() -> sink.write(ByteBuffer.allocate(1), 1000))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1000-byte limit");
        assertThatThrownBy(() -> sink.write(ByteBuffer.allocate(1), -5)).isInstanceOf(IOException.class);
        assertThat(sink.length()).isEqualTo(1000);
    }
}
