package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Blocks land at their offsets in any order; the limit holds. */
class PositionalMemorySinkTest {

    @Test
    void outOfOrderBlocksLandAtTheirOffsets() throws IOException {
        PositionalMemorySink sink = DataSink.toMemory(1 << 20);
        byte[] whole = new byte[200_000];
        for (int i = 0; i < whole.length; i++) {
            whole[i] = (byte) (i * 31);
        }
        sink.write(ByteBuffer.wrap(whole, 150_000, 50_000), 150_000); // last block first: the array grows
        sink.write(ByteBuffer.wrap(whole, 0, 70_000), 0);
        sink.write(ByteBuffer.wrap(whole, 70_000, 80_000), 70_000);
        assertThat(sink.length()).isEqualTo(whole.length);
        assertThat(Arrays.copyOf(sink.array(), sink.length())).isEqualTo(whole);
    }

    @Test
    void aBlockPastTheLimitFailsTheTransfer() throws IOException {
        PositionalMemorySink sink = DataSink.toMemory(1000);
        sink.write(ByteBuffer.allocate(1000), 0);
        assertThatThrownBy(() -> sink.write(ByteBuffer.allocate(1), 1000)).isInstanceOf(IOException.class)
                .hasMessageContaining("1000-byte limit");
        assertThatThrownBy(() -> sink.write(ByteBuffer.allocate(1), -5)).isInstanceOf(IOException.class);
        assertThat(sink.length()).isEqualTo(1000);
    }
}
