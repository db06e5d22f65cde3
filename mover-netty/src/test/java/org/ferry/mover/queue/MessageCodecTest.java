package org.ferry.mover.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.junit.jupiter.api.Test;

/**
 * The versioned JSON of the work-queue messages: version 4 carries the chunk in the runner's own
 * shape; a chunk a version 2 or 3 scheduler queued before an upgrade is still read, meaning what it
 * meant (version 2: no times to preserve); versions outside 2..4 are refused.
 */
class MessageCodecTest {

    private static final UUID TASK = UUID.fromString("0b5e3c1a-8d44-4b8e-9a55-2f3c6f0e7d11");

    private final MessageCodec codec = new MessageCodec();

    private static EndpointAccess access(String name, int port) {
        return new EndpointAccess(
                name,
                List.of(new EndpointAccess.Server("ftp://127.0.0.1:" + port, null)),
                "alice",
                null,
                null,
                Map.of());
    }

    /**
     * Version 6: the envelope around the chunk in the runner's own shape, files and all, with the
     * checksum algorithm, the files' given checksums and the further destinations of a multicast.
     */
    @Test
    void version6CarriesTheChunkInTheRunnersShape() {
        ChunkMessage message = new ChunkMessage(
                MessageCodec.VERSION,
                12,
                TASK,
                99L,
                null,
                new ChunkRequest(
                        access("alice#src", 2811),
                        access("alice#dst", 2812),
                        List.of(
                                new FileTransfer(
                                        1,
                                        "/a",
                                        "/b",
                                        3,
                                        List.of(),
                                        0,
                                        Instant.parse("2001-02-03T04:05:06Z"),
                                        "0a1b2c3d"),
                                new FileTransfer(2, "/c", "/d", 4, List.of(new ByteRange(0, 2)), 1, null)),
                        new ChunkTuning(2, 4, 10),
                        false,
                        ProtectionLevel.PRIVATE,
                        true,
                        ChecksumAlgorithm.ADLER32,
                        List.of(access("alice#d2", 2813), access("alice#d3", 2814))));
        byte[] json = codec.write(message);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .contains("\"v\":6", "\"request\":", "\"checksumAlgorithm\":\"ADLER32\"", "alice#d3")
                .as("derived answers are not part of the message")
                .doesNotContain("\"gsi\"", "\"resumed\"", "\"multicast\"");
        ChunkMessage read = codec.chunk(json);
        assertThat(read).isEqualTo(message);
        assertThat(read.request().additionalDestinations())
                .extracting(EndpointAccess::endpoint)
                .containsExactly("alice#d2", "alice#d3");
        assertThat(read.request().files())
                .extracting(FileTransfer::sourceModified)
                .containsExactly(Instant.parse("2001-02-03T04:05:06Z"), null);
        assertThat(read.request().files())
                .extracting(FileTransfer::externalChecksum)
                .containsExactly("0a1b2c3d", null);
    }

    /** A version-4 chunk (no algorithm, no given checksums) queued before the upgrade compares MD5. */
    @Test
    void aVersion4ChunkComparesMd5() {
        ChunkMessage message = new ChunkMessage(
                4,
                12,
                TASK,
                null,
                null,
                new ChunkRequest(
                        access("alice#src", 2811),
                        access("alice#dst", 2812),
                        List.of(new FileTransfer("/a", "/b", 3)),
                        new ChunkTuning(2, 4, 10),
                        true,
                        ProtectionLevel.CLEAR));
        String v4 = new String(codec.write(message), StandardCharsets.UTF_8)
                .replace(",\"checksumAlgorithm\":\"MD5\"", "")
                .replace(",\"externalChecksum\":null", "");
        assertThat(v4).doesNotContain("checksumAlgorithm", "externalChecksum");
        ChunkMessage read = codec.chunk(v4.getBytes(StandardCharsets.UTF_8));
        assertThat(read.request().checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.MD5);
        assertThat(read.request().files().get(0).externalChecksum()).isNull();
        assertThat(read).isEqualTo(message);
    }

    /** A chunk as release 3 wrote it (flat, ranges as text, file times as epoch milliseconds). */
    @Test
    void aVersion3ChunkQueuedBeforeTheUpgradeIsRead() {
        String v3 = "{\"v\":3,\"chunkId\":12,\"taskId\":\"" + TASK + "\","
                + "\"source\":{\"endpoint\":\"alice#src\",\"servers\":[{\"url\":\"ftp://127.0.0.1:2811\",\"subject\":null}],"
                + "\"username\":\"alice\",\"sealedSecret\":null,\"secretContext\":null,\"trustRoots\":{}},"
                + "\"destination\":{\"endpoint\":\"alice#dst\",\"servers\":[{\"url\":\"ftp://127.0.0.1:2812\",\"subject\":null}],"
                + "\"username\":\"alice\",\"sealedSecret\":null,\"secretContext\":null,\"trustRoots\":{}},"
                + "\"tuning\":{\"concurrency\":2,\"parallelism\":4,\"pipelining\":10},"
                + "\"verifyChecksum\":false,\"encryptData\":true,\"preserveTimestamp\":true,"
                + "\"deadlineEpochMillis\":99,\"credentialsExpireEpochMillis\":null,"
                + "\"files\":[{\"id\":1,\"sourcePath\":\"/a\",\"destinationPath\":\"/b\",\"sizeBytes\":3,"
                + "\"acknowledged\":\"\",\"attempts\":0,\"sourceModifiedEpochMillis\":981173106000},"
                + "{\"id\":2,\"sourcePath\":\"/c\",\"destinationPath\":\"/d\",\"sizeBytes\":4,"
                + "\"acknowledged\":\"0-2\",\"attempts\":1,\"sourceModifiedEpochMillis\":null}]}";
        ChunkMessage read = codec.chunk(v3.getBytes(StandardCharsets.UTF_8));
        assertThat(read.v()).isEqualTo(3);
        assertThat(read.deadlineEpochMillis()).isEqualTo(99L);
        ChunkRequest request = read.request();
        assertThat(request.preserveTimestamp()).isTrue();
        assertThat(request.dataProtection()).isEqualTo(ProtectionLevel.PRIVATE);
        assertThat(request.source().servers().get(0).url()).isEqualTo("ftp://127.0.0.1:2811");
        assertThat(request.files())
                .extracting(FileTransfer::sourceModified)
                .containsExactly(Instant.parse("2001-02-03T04:05:06Z"), null);
        assertThat(request.files().get(1).acknowledged()).containsExactly(new ByteRange(0, 2));
    }

    /** A chunk as release 2 wrote it: no preserveTimestamp, no file times. */
    @Test
    void aVersion2ChunkQueuedBeforeTheUpgradeIsReadWithoutTimes() {
        String v2 = "{\"v\":2,\"chunkId\":7,\"taskId\":\"" + TASK + "\","
                + "\"source\":{\"endpoint\":\"alice#src\",\"servers\":[{\"url\":\"ftp://127.0.0.1:2811\",\"subject\":null}],"
                + "\"username\":\"alice\",\"sealedSecret\":null,\"secretContext\":null,\"trustRoots\":{}},"
                + "\"destination\":{\"endpoint\":\"alice#dst\",\"servers\":[{\"url\":\"ftp://127.0.0.1:2812\",\"subject\":null}],"
                + "\"username\":\"alice\",\"sealedSecret\":null,\"secretContext\":null,\"trustRoots\":{}},"
                + "\"tuning\":{\"concurrency\":1,\"parallelism\":2,\"pipelining\":5},"
                + "\"verifyChecksum\":true,\"encryptData\":false,\"deadlineEpochMillis\":1234,"
                + "\"credentialsExpireEpochMillis\":null,"
                + "\"files\":[{\"id\":5,\"sourcePath\":\"/s\",\"destinationPath\":\"/d\",\"sizeBytes\":9,"
                + "\"acknowledged\":\"0-4\",\"attempts\":2}]}";
        ChunkMessage read = codec.chunk(v2.getBytes(StandardCharsets.UTF_8));
        assertThat(read.v()).isEqualTo(2);
        assertThat(read.deadlineEpochMillis()).isEqualTo(1234L);
        ChunkRequest request = read.request();
        assertThat(request.preserveTimestamp()).isFalse();
        assertThat(request.verifyChecksum()).isTrue();
        FileTransfer file = request.files().get(0);
        assertThat(file.sourceModified()).isNull();
        assertThat(file.attemptsBefore()).isEqualTo(2);
        assertThat(file.isResumed()).isTrue();
    }

    @Test
    void aVersion2ResultIsRead() {
        ResultMessage result = new ResultMessage(
                2,
                ResultMessage.Type.FILE_ARRIVED,
                TASK,
                7,
                5,
                9,
                0,
                false,
                null,
                false,
                false,
                null,
                null,
                null,
                "mover-1",
                1L,
                null);
        assertThat(codec.result(codec.write(result))).isEqualTo(result);
    }

    @Test
    void versionsOutsideTwoToSixAreRefusedLoudly() {
        for (int version : new int[] {1, 7}) {
            String json = "{\"v\":" + version + ",\"type\":\"PING\",\"taskId\":null,\"chunkId\":0}";
            assertThatThrownBy(() -> codec.control(json.getBytes(StandardCharsets.UTF_8)))
                    .as("version " + version)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("message version " + version)
                    .hasMessageContaining("reads 2 to 6");
        }
    }
}
