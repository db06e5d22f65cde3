package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.ferry.mover.testing.LeakCapture;

/**
 * Properties of the MODE E receiving pipeline ({@link ModeEFrameDecoder}, {@link ModeEBlockWriter},
 * {@link ModeEEodCounter} and the transfer's {@link ModeEEndTracker}; GFD.020, GFD.020 "Extended Block Mode") on {@link EmbeddedChannel}s, one per data connection:
 *
 * <ul>
 *   <li>random valid transfers (1..4 connections, random block sizes, blocks in random order,
 *       EOF alone or with EOD, EOD alone or with the last block, CLOSE or not, every connection's
 *       bytes split at random and the connections interleaved at random) complete with exactly
 *       the original bytes;
 *   <li>the same transfers with one corruption (reserved descriptor bits, negative count, offset
 *       or count beyond the declared range, truncation mid-header or mid-payload, an EOF count that
 *       does not match, data or a second EOF after EOD) fail, or for the corruptions that can
 *       legitimately arrive after the end, succeed with the original bytes; in every case nothing
 *       escapes the pipeline, the transfer ends once the connections close (no hang; an EOF
 *       announcing more connections than came ends by the transfer's idle timeout, since more
 *       could still connect), no byte is
 *       written outside the declared range or after the transfer ended, and no buffer leaks.
 * </ul>
 * 300 valid and 600 corrupted transfers, fixed seed (reproducible in CI; change it to explore).
 */
class ModeEReceiverFuzzTest {

    private enum Corruption {
        RESERVED_DESCRIPTOR_BITS,
        NEGATIVE_COUNT,
        OFFSET_BEYOND_RANGE,
        COUNT_BEYOND_RANGE,
        TRUNCATED,
        EOF_COUNT_TOO_HIGH,
        EOF_COUNT_ZERO,
        EOF_COUNT_HUGE,
        DATA_AFTER_EOD,
        SECOND_EOF_AFTER_EOD
    }

    private LeakCapture leaks;
    private EventLoopGroup timers;

    @BeforeProperty
    void captureLeaks() {
        leaks = LeakCapture.open();
        timers = new DefaultEventLoopGroup(1);
    }

    @AfterProperty
    void checkLeaks() {
        timers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        try {
            leaks.assertNoLeaks();
        } finally {
            leaks.close();
        }
    }

    @Property(tries = 300, seed = "20261122")
    void validTransfersReassembleExactly(@ForAll("contents") byte[] content, @ForAll long seed) throws Exception {
        Random random = new Random(seed);
        List<List<Frame>> connections = validTransfer(content, random);
        Receiver receiver = new Receiver(content.length, Long.MAX_VALUE); // as DataChannels installs it
        receiver.run(serialize(connections), random);
        assertThat(receiver.transfer.result()).isCompleted();
        assertThat(receiver.transfer.result().get()).isEqualTo(content.length);
        assertThat(receiver.target).isEqualTo(content);
        receiver.assertClean();
    }

    @Property(tries = 600, seed = "20261122")
    void corruptedTransfersFailCleanly(
            @ForAll("contents") byte[] content, @ForAll long seed, @ForAll Corruption corruption) {
        Random random = new Random(seed);
        List<List<Frame>> connections = validTransfer(content, random);
        List<byte[]> streams = corrupt(connections, corruption, content.length, random);
        Receiver receiver = new Receiver(content.length, content.length); // the declared range is the file
        receiver.run(streams, random);
        if (corruption == Corruption.EOF_COUNT_TOO_HIGH) {
            // Not a hang: more connections may still come (GFD.020), so only the transfer's idle
            // timeout, which DataChannels always arms, can end it.
            assertThat(receiver.transfer.isDone()).isFalse();
            receiver.transfer.failWhenIdle(timers.next(), Duration.ofMillis(20));
            assertThat(receiver.transfer.result()).failsWithin(Duration.ofSeconds(5));
        }
        assertThat(receiver.transfer.isDone())
                .as("transfer ended once every connection closed")
                .isTrue();
        boolean mayEndAfterSuccess =
                corruption == Corruption.DATA_AFTER_EOD || corruption == Corruption.SECOND_EOF_AFTER_EOD;
        if (mayEndAfterSuccess && !receiver.transfer.result().isCompletedExceptionally()) {
            assertThat(receiver.target).isEqualTo(content); // the trailing block was not written
        } else {
            assertThat(receiver.transfer.result()).as(corruption.name()).isCompletedExceptionally();
            try {
                receiver.transfer.result().get();
            } catch (InterruptedException | ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(java.io.IOException.class);
            }
        }
        receiver.assertClean();
    }

    /** One header and its payload (empty for end headers). */
    private record Frame(int descriptor, long count, long offset, byte[] payload) {

        byte[] bytes() {
            ByteBuffer buffer = ByteBuffer.allocate(ModeEHeader.LENGTH + payload.length);
            buffer.put((byte) descriptor).putLong(count).putLong(offset).put(payload);
            return buffer.array();
        }
    }

    /** Blocks of random sizes, dealt to 1..4 connections in random order, ended as globus or dCache do. */
    private static List<List<Frame>> validTransfer(byte[] content, Random random) {
        int connectionCount = 1 + random.nextInt(4);
        List<List<Frame>> connections = new ArrayList<>();
        for (int i = 0; i < connectionCount; i++) {
            connections.add(new ArrayList<>());
        }
        int maxBlock = 1 + random.nextInt(700);
        for (int offset = 0; offset < content.length; ) {
            int size = Math.min(content.length - offset, 1 + random.nextInt(maxBlock));
            byte[] payload = java.util.Arrays.copyOfRange(content, offset, offset + size);
            connections.get(random.nextInt(connectionCount)).add(new Frame(0, size, offset, payload));
            offset += size;
        }
        int eofConnection = random.nextInt(connectionCount);
        for (int i = 0; i < connectionCount; i++) {
            List<Frame> frames = connections.get(i);
            Collections.shuffle(frames, random);
            int close = random.nextBoolean() ? ModeEHeader.CLOSE : 0;
            if (i == eofConnection) {
                if (random.nextBoolean()) {
                    frames.add(new Frame(ModeEHeader.EOF | ModeEHeader.EOD | close, 0, connectionCount, new byte[0]));
                } else { // EOF alone, anywhere before the EOD
                    frames.add(
                            random.nextInt(frames.size() + 1),
                            new Frame(ModeEHeader.EOF, 0, connectionCount, new byte[0]));
                    frames.add(new Frame(ModeEHeader.EOD | close, 0, 0, new byte[0]));
                }
            } else if (!frames.isEmpty() && random.nextBoolean()) { // data and EOD in one header
                Frame last = frames.remove(frames.size() - 1);
                frames.add(new Frame(ModeEHeader.EOD | close, last.count(), last.offset(), last.payload()));
            } else {
                frames.add(new Frame(ModeEHeader.EOD | close, 0, 0, new byte[0]));
            }
        }
        return connections;
    }

    private static List<byte[]> serialize(List<List<Frame>> connections) {
        List<byte[]> streams = new ArrayList<>();
        for (List<Frame> frames : connections) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            frames.forEach(frame -> out.writeBytes(frame.bytes()));
            streams.add(out.toByteArray());
        }
        return streams;
    }

    private static List<byte[]> corrupt(
            List<List<Frame>> connections, Corruption corruption, int length, Random random) {
        int victim = random.nextInt(connections.size());
        List<Frame> frames = connections.get(victim);
        int eofConnection = -1;
        for (int i = 0; i < connections.size(); i++) {
            for (Frame frame : connections.get(i)) {
                if ((frame.descriptor() & ModeEHeader.EOF) != 0) {
                    eofConnection = i;
                }
            }
        }
        int at = random.nextInt(frames.size());
        Frame f = frames.get(at);
        switch (corruption) {
            case RESERVED_DESCRIPTOR_BITS ->
                frames.set(
                        at,
                        new Frame(
                                f.descriptor()
                                        | new int[] {
                                                    ModeEHeader.EOR,
                                                    ModeEHeader.SUSPECT_ERRORS,
                                                    ModeEHeader.RESTART_MARKER
                                                }
                                                [random.nextInt(3)],
                                f.count(),
                                f.offset(),
                                f.payload()));
            case NEGATIVE_COUNT ->
                frames.set(at, new Frame(f.descriptor(), f.count() | Long.MIN_VALUE, f.offset(), f.payload()));
            case OFFSET_BEYOND_RANGE ->
                frames.add(
                        at,
                        new Frame(
                                0,
                                1,
                                length + (random.nextBoolean() ? random.nextInt(10) : Long.MAX_VALUE - length - 1),
                                new byte[1]));
            case COUNT_BEYOND_RANGE ->
                frames.add(at, new Frame(0, length + 1 + random.nextInt(1 << 20), 0, new byte[0]));
            case EOF_COUNT_TOO_HIGH, EOF_COUNT_ZERO, EOF_COUNT_HUGE -> {
                List<Frame> eofFrames = connections.get(eofConnection);
                for (int i = 0; i < eofFrames.size(); i++) {
                    Frame e = eofFrames.get(i);
                    if ((e.descriptor() & ModeEHeader.EOF) != 0) {
                        long count = corruption == Corruption.EOF_COUNT_ZERO
                                ? 0
                                : corruption == Corruption.EOF_COUNT_HUGE
                                        ? (random.nextBoolean() ? -1L : ModeEEndTracker.MAX_EOD_COUNT + 1)
                                        : connections.size() + 1 + random.nextInt(3);
                        eofFrames.set(i, new Frame(e.descriptor(), 0, count, e.payload()));
                    }
                }
            }
            case DATA_AFTER_EOD -> {
                byte[] inverted = new byte[Math.max(1, Math.min(length, 5))];
                java.util.Arrays.fill(inverted, (byte) 0x5a);
                long offset = length == 0 ? 0 : random.nextInt(Math.max(1, length - inverted.length + 1));
                frames.add(
                        new Frame(0, length == 0 ? 0 : inverted.length, offset, length == 0 ? new byte[0] : inverted));
            }
            case SECOND_EOF_AFTER_EOD ->
                frames.add(new Frame(ModeEHeader.EOF | ModeEHeader.EOD, 0, connections.size(), new byte[0]));
            case TRUNCATED -> {} // below, on bytes
            default -> throw new IllegalStateException(corruption.name());
        }
        List<byte[]> streams = serialize(connections);
        if (corruption == Corruption.TRUNCATED) {
            byte[] stream = streams.get(victim);
            streams.set(victim, java.util.Arrays.copyOf(stream, random.nextInt(stream.length)));
        }
        return streams;
    }

    /** The receiving pipelines of one transfer and a sink that records every write. */
    private static final class Receiver {
        final DataTransfer transfer = new DataTransfer(null);
        final ModeEEndTracker tracker = new ModeEEndTracker(transfer);
        final byte[] target;
        final long maxEndOffset;
        final List<String> violations = new ArrayList<>();
        final List<ByteBuf> written = new ArrayList<>();
        final List<EmbeddedChannel> channels = new ArrayList<>();
        final DataSink sink;

        Receiver(int length, long maxEndOffset) {
            this.target = new byte[length];
            this.maxEndOffset = maxEndOffset;
            this.sink = (data, offset) -> {
                int n = data.remaining();
                if (transfer.isDone()) {
                    violations.add("write of " + n + " at " + offset + " after the transfer ended");
                }
                if (offset < 0 || offset + n > target.length) {
                    violations.add("write of " + n + " at " + offset + " outside [0, " + target.length + ")");
                    data.position(data.limit());
                    return;
                }
                data.get(target, (int) offset, n);
            };
        }

        /** Feeds every stream in random pieces, connections interleaved at random, then closes them all. */
        void run(List<byte[]> streams, Random random) {
            int[] positions = new int[streams.size()];
            for (int i = 0; i < streams.size(); i++) {
                EmbeddedChannel channel = new EmbeddedChannel(
                        new ModeEFrameDecoder(maxEndOffset),
                        new ModeEBlockWriter(sink, transfer),
                        new ModeEEodCounter(tracker, transfer));
                transfer.register(channel);
                channels.add(channel);
            }
            List<Integer> pending = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++) {
                pending.add(i);
            }
            while (!pending.isEmpty()) {
                int pick = random.nextInt(pending.size());
                int i = pending.get(pick);
                byte[] stream = streams.get(i);
                int piece = random.nextInt(4) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(stream.length + 1);
                int end = Math.min(stream.length, positions[i] + piece);
                if (end > positions[i]) {
                    ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(end - positions[i]);
                    buf.writeBytes(stream, positions[i], end - positions[i]);
                    written.add(buf);
                    EmbeddedChannel channel = channels.get(i);
                    if (channel.isOpen()) {
                        channel.writeInbound(buf); // throws if an exception reached the tail
                    } else {
                        buf.release(); // the transfer ended and closed it, as a socket would be
                    }
                }
                positions[i] = end;
                if (end == stream.length) {
                    pending.remove(pick);
                }
            }
            for (EmbeddedChannel channel : channels) {
                channel.close();
                channel.checkException();
            }
        }

        void assertClean() {
            assertThat(violations).isEmpty();
            for (EmbeddedChannel channel : channels) {
                assertThat(channel.finishAndReleaseAll())
                        .as("nothing left unconsumed in the pipeline")
                        .isFalse();
            }
            assertThat(written)
                    .allSatisfy(buf ->
                            assertThat(buf.refCnt()).as("input buffer released").isZero());
        }
    }

    @Provide
    Arbitrary<byte[]> contents() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
    }
}
