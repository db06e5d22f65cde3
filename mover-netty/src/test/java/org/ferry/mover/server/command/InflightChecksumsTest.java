package org.ferry.mover.server.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.PositionalMemorySink;
import org.ferry.mover.storage.FileIdentity;
import org.junit.jupiter.api.Test;

/** The in-flight checksums of a sink, and the cache that keeps them with a file's identity. */
class InflightChecksumsTest {

    private static final byte[] DATA = new byte[100_000];

    static {
        new Random(9).nextBytes(DATA);
    }

    private static String md5(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }

    @Test
    void blocksInOrderGiveTheWholeFilesChecksumsAndWriteEveryByte() throws Exception {
        PositionalMemorySink memory = DataSink.toMemory(DATA.length);
        InflightChecksums sink = new InflightChecksums(memory, List.of("MD5", "CRC32C"));
        for (int offset = 0; offset < DATA.length; offset += 30_000) {
            int length = Math.min(30_000, DATA.length - offset);
            sink.write(ByteBuffer.wrap(DATA, offset, length), offset);
        }
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(DATA);
        assertThat(sink.values(DATA.length))
                .containsExactly(
                        Map.entry("MD5", md5(DATA)), Map.entry("CRC32C", String.format("%08x", crc.getValue())));
        assertThat(memory.inputStream().readAllBytes()).isEqualTo(DATA);
    }

    @Test
    void aBlockOutOfOrderOrAFileLongerThanTheBytesGivesNoChecksum() throws Exception {
        PositionalMemorySink memory = DataSink.toMemory(DATA.length);
        InflightChecksums sink = new InflightChecksums(memory, List.of("MD5"));
        sink.write(ByteBuffer.wrap(DATA, 50_000, 50_000), 50_000);
        sink.write(ByteBuffer.wrap(DATA, 0, 50_000), 0);
        assertThat(sink.values(DATA.length)).isEmpty();
        assertThat(memory.inputStream().readAllBytes()).isEqualTo(DATA); // written all the same

        InflightChecksums partial = new InflightChecksums(DataSink.toMemory(DATA.length), List.of("MD5"));
        partial.write(ByteBuffer.wrap(DATA, 0, 1000), 0);
        assertThat(partial.values(DATA.length)).isEmpty();
    }

    @Test
    void theCacheAnswersOnlyForTheSameIdentityAndForgetsTheLeastRecentlyUsed() {
        ChecksumCache cache = new ChecksumCache(2);
        FileIdentity a = new FileIdentity(1, 10, 100, 5, 6);
        cache.put(a, Map.of("MD5", "aa"));
        cache.put(a, Map.of("SHA1", "ab"));
        assertThat(cache.get(a, "MD5")).isEqualTo("aa");
        assertThat(cache.get(a, "SHA1")).isEqualTo("ab");
        assertThat(cache.get(new FileIdentity(1, 10, 100, 5, 7), "MD5")).isNull(); // changed since
        assertThat(cache.get(a, "MD5")).as("the old entry is gone").isNull();

        FileIdentity b = new FileIdentity(1, 11, 100, 5, 6);
        FileIdentity c = new FileIdentity(2, 10, 100, 5, 6);
        cache.put(a, Map.of("MD5", "aa"));
        cache.put(b, Map.of("MD5", "bb"));
        assertThat(cache.get(a, "MD5")).isEqualTo("aa"); // a used last: b goes
        cache.put(c, Map.of("MD5", "cc"));
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get(b, "MD5")).isNull();
        assertThat(cache.get(a, "MD5")).isEqualTo("aa");
        assertThat(cache.get(c, "MD5")).isEqualTo("cc");
    }
}
