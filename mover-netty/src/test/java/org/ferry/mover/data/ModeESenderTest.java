package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@link ModeESender} writes on one connection (GFD.020 "Extended Block Mode"), on an
 * {@link EmbeddedChannel} that records each write: a block read into a buffer goes with its header
 * in one write, and the connection's last block with the end header too. Toward a receiver on
 * another host (the embedded channel's peer is no address of this host) the file goes as regions
 * for sendfile, in the dealer's larger blocks, but a small block still goes framed in one write.
 */
class ModeESenderTest {

    @TempDir
    Path directory;

    private FileChannel file(int bytes) throws IOException {
        byte[] data = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        Path path = directory.resolve("source");
        Files.write(path, data);
        return FileChannel.open(path, StandardOpenOption.READ);
    }

    /** A connection whose sender reads {@code source} into buffers (as under PROT P, or to a local peer). */
    private static EmbeddedChannel sending(DataSource source, int blockSize, DataTransfer transfer) {
        EmbeddedChannel ch = new EmbeddedChannel();
        transfer.register(ch);
        // as DataChannels installs them (by name, where a kept connection's next file finds them)
        ch.pipeline()
                .addLast(new ModeESenderInitializer(new ModeESender(
                        new SourceReader(source, true, false),
                        new ModeEDealer(source.ranges(), blockSize, 1),
                        transfer)));
        ch.runPendingTasks();
        return ch;
    }

    /** @return each write the connection made, in order */
    private static List<ByteBuf> writes(EmbeddedChannel ch) {
        List<ByteBuf> writes = new ArrayList<>();
        for (Object message = ch.readOutbound(); message != null; message = ch.readOutbound()) {
            writes.add((ByteBuf) message);
        }
        return writes;
    }

    /** Sends the whole file on one connection. */
    private static List<ByteBuf> send(FileChannel file, int blockSize, DataTransfer transfer) throws IOException {
        return writes(sending(DataSource.ofWholeFile(file), blockSize, transfer));
    }

    private static void assertHeader(ByteBuf buf, int descriptor, long count, long offset) {
        assertThat(buf.readUnsignedByte()).as("descriptor").isEqualTo((short) descriptor);
        assertThat(buf.readLong()).as("count").isEqualTo(count);
        assertThat(buf.readLong()).as("offset").isEqualTo(offset);
    }

    private static void assertPayload(ByteBuf buf, long offset, int length) {
        for (int i = 0; i < length; i++) {
            assertThat(buf.readByte()).isEqualTo((byte) ((offset + i) * 31 + 7));
        }
    }

    @Test
    void aOneBlockFileIsOneWriteOfHeaderPayloadAndEnd() throws IOException {
        DataTransfer transfer = new DataTransfer(null);
        try (FileChannel file = file(1000)) {
            List<ByteBuf> writes = send(file, 64 * 1024, transfer);

            assertThat(writes).hasSize(1);
            ByteBuf only = writes.get(0);
            assertHeader(only, 0, 1000, 0);
            assertPayload(only, 0, 1000);
            assertHeader(only, ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 1);
            assertThat(only.isReadable()).isFalse();
            only.release();
        }
        assertThat(transfer.result()).isCompletedWithValue(1000L);
    }

    @Test
    void onlyTheLastBlockCarriesTheEnd() throws IOException {
        DataTransfer transfer = new DataTransfer(null);
        try (FileChannel file = file(1000)) {
            List<ByteBuf> writes = send(file, 600, transfer);

            assertThat(writes).hasSize(2);
            ByteBuf first = writes.get(0);
            assertHeader(first, 0, 600, 0);
            assertPayload(first, 0, 600);
            assertThat(first.isReadable()).isFalse();
            ByteBuf second = writes.get(1);
            assertHeader(second, 0, 400, 600);
            assertPayload(second, 600, 400);
            assertHeader(second, ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 1);
            assertThat(second.isReadable()).isFalse();
            writes.forEach(ByteBuf::release);
        }
        assertThat(transfer.result()).isCompletedWithValue(1000L);
    }

    @Test
    void aSmallFileToAnotherHostIsOneWriteOfHeaderPayloadAndEndToo() throws IOException {
        DataTransfer transfer = new DataTransfer(null);
        try (FileChannel file = file(1000)) {
            DataSource source = DataSource.ofWholeFile(file);
            EmbeddedChannel ch = new EmbeddedChannel();
            transfer.register(ch);
            ch.pipeline()
                    .addLast(new ModeESenderInitializer(new ModeESender(
                            new SourceReader(source, false, true),
                            new ModeEDealer(source.ranges(), 64 * 1024, 4 << 20, 1),
                            transfer)));
            ch.runPendingTasks();

            List<ByteBuf> writes = writes(ch);
            assertThat(writes).hasSize(1);
            ByteBuf only = writes.get(0);
            assertHeader(only, 0, 1000, 0);
            assertPayload(only, 0, 1000);
            assertHeader(only, ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 1);
            only.release();
        }
        assertThat(transfer.result()).isCompletedWithValue(1000L);
    }

    @Test
    void aBigFileToAnotherHostGoesAsRegionsOfTheRegionBlockSize() throws IOException {
        DataTransfer transfer = new DataTransfer(null);
        try (FileChannel file = file(500_000)) {
            DataSource source = DataSource.ofWholeFile(file);
            EmbeddedChannel ch = new EmbeddedChannel();
            transfer.register(ch);
            ch.pipeline()
                    .addLast(new ModeESenderInitializer(new ModeESender(
                            new SourceReader(source, false, true),
                            new ModeEDealer(source.ranges(), 64 * 1024, 200_000, 1),
                            transfer)));
            ch.runPendingTasks();

            List<Object> writes = new ArrayList<>();
            for (Object message = ch.readOutbound(); message != null; message = ch.readOutbound()) {
                writes.add(message);
            }
            // header, region; header, region; header, region (the rest); end
            assertThat(writes).hasSize(7);
            long offset = 0;
            for (int block = 0; block < 3; block++) {
                int length = block < 2 ? 200_000 : 100_000;
                ByteBuf header = (ByteBuf) writes.get(2 * block);
                assertHeader(header, 0, length, offset);
                header.release();
                FileRangeRegion region = (FileRangeRegion) writes.get(2 * block + 1);
                assertThat(region.position()).isEqualTo(offset);
                assertThat(region.count()).isEqualTo(length);
                region.release();
                offset += length;
            }
            ByteBuf end = (ByteBuf) writes.get(6);
            assertHeader(end, ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 1);
            end.release();
        }
        assertThat(transfer.result()).isCompletedWithValue(500_000L);
    }

    @Test
    void regionBlocksAreLargeButLeaveEveryConnectionAShare() {
        int block = DataChannels.DEFAULT_BLOCK_SIZE_BYTES;
        // a big file: the largest region blocks
        assertThat(DataChannels.regionBlockBytes(4L << 30, 4, block)).isEqualTo(DataChannels.MAX_REGION_BLOCK_BYTES);
        // 64 MiB over 8 connections: four 2 MiB blocks each
        assertThat(DataChannels.regionBlockBytes(64L << 20, 8, block)).isEqualTo(2 << 20);
        // small files: never below the block size (one block, framed when it is small)
        assertThat(DataChannels.regionBlockBytes(50 * 1024, 1, block)).isEqualTo(block);
    }

    @Test
    void anEmptyFileSendsTheEndAlone() throws IOException {
        DataTransfer transfer = new DataTransfer(null);
        try (FileChannel file = file(0)) {
            List<ByteBuf> writes = send(file, 600, transfer);

            assertThat(writes).hasSize(1);
            assertHeader(writes.get(0), ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 1);
            writes.get(0).release();
        }
        assertThat(transfer.result()).isCompletedWithValue(0L);
    }

    @Test
    void aKeptConnectionEndsEachFileInItsLastWriteAndServesTheNext() throws IOException {
        ModeECache cache = new ModeECache();
        DataTransfer one = new DataTransfer(null, cache, ModeECache.Direction.SEND);
        try (FileChannel file = file(1000)) {
            DataSource source = DataSource.ofWholeFile(file);
            EmbeddedChannel ch = sending(source, 64 * 1024, one);
            assertThat(one.result()).isCompletedWithValue(1000L);
            List<ByteBuf> firstWrites = writes(ch);
            assertThat(firstWrites).hasSize(1);
            ByteBuf firstFile = firstWrites.get(0);
            assertHeader(firstFile, 0, 1000, 0);
            assertPayload(firstFile, 0, 1000);
            assertHeader(firstFile, ModeEHeader.EOF | ModeEHeader.EOD, 0, 1);
            firstFile.release();
            assertThat(ch.isOpen()).as("kept for the next file").isTrue();

            DataTransfer two = new DataTransfer(null, cache, ModeECache.Direction.SEND);
            List<Channel> kept = cache.takeAll(ModeECache.Direction.SEND);
            assertThat(kept).containsExactly(ch);
            ModeEReuse.forSending(
                    ch, two, new SourceReader(source, true, false), new ModeEDealer(source.ranges(), 64 * 1024, 1));
            ch.runPendingTasks();
            assertThat(two.result()).isCompletedWithValue(1000L);
            List<ByteBuf> secondWrites = writes(ch);
            assertThat(secondWrites).hasSize(1);
            ByteBuf secondFile = secondWrites.get(0);
            assertHeader(secondFile, 0, 1000, 0);
            assertPayload(secondFile, 0, 1000);
            assertHeader(secondFile, ModeEHeader.EOF | ModeEHeader.EOD, 0, 1);
            assertThat(secondFile.isReadable()).isFalse();
            secondFile.release();
        }
    }
}
