package org.ferry.mover.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.junit.jupiter.api.Test;

/**
 * The versioned JSON of the work-queue messages: version 3 carries {@code preserveTimestamp} and
 * each file's source modification time; a chunk a version 2 scheduler queued before an upgrade is
 * still read, meaning what it meant (no times to preserve); versions outside 2..3 are refused.
 */
class MessageCodecTest {

    private static final UUID TASK = UUID.fromString("0b5e3c1a-8d44-4b8e-9a55-2f3c6f0e7d11");

    private final MessageCodec codec = new MessageCodec();

    private static ChunkMessage.Access access(String name) {
        return new ChunkMessage.Access(
                name,
                List.of(new ChunkMessage.Access.Server("ftp://127.0.0.1:2811", null)),
                "alice",
                null,
                null,
                Map.of());
    }

    @Test
    void version3CarriesPreserveTimestampAndEachFilesTime() {
        ChunkMessage message = new ChunkMessage(
                MessageCodec.VERSION,
                12,
                TASK,
                access("alice#src"),
                access("alice#dst"),
                new ChunkTuning(2, 4, 10),
                false,
                false,
                true,
                null,
                null,
                List.of(
                        new ChunkMessage.File(1, "/a", "/b", 3, "", 0, 981_173_106_000L),
                        new ChunkMessage.File(2, "/c", "/d", 4, "0-2", 1, null)));
        byte[] json = codec.write(message);
        assertThat(new String(json, StandardCharsets.UTF_8))
                .contains("\"v\":3", "\"preserveTimestamp\":true", "\"sourceModifiedEpochMillis\":981173106000");
        ChunkMessage read = codec.chunk(json);
        assertThat(read).isEqualTo(message);
        ChunkRequest request = read.toRequest();
        assertThat(request.preserveTimestamp()).isTrue();
        assertThat(request.files())
                .extracting(FileTransfer::sourceModified)
                .containsExactly(Instant.parse("2001-02-03T04:05:06Z"), null);
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
        assertThat(read.preserveTimestamp()).isFalse();
        assertThat(read.deadlineEpochMillis()).isEqualTo(1234L);
        ChunkRequest request = read.toRequest();
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
                1L);
        assertThat(codec.result(codec.write(result))).isEqualTo(result);
    }

    @Test
    void versionsOutsideTwoToThreeAreRefusedLoudly() {
        for (int version : new int[] {1, 4}) {
            String json = "{\"v\":" + version + ",\"type\":\"PING\",\"taskId\":null,\"chunkId\":0}";
            assertThatThrownBy(() -> codec.control(json.getBytes(StandardCharsets.UTF_8)))
                    .as("version " + version)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("message version " + version)
                    .hasMessageContaining("reads 2 to 3");
        }
    }
}
