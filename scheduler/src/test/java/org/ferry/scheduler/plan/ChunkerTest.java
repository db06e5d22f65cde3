package org.ferry.scheduler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.scheduler.queue.TransferChunk;
import org.junit.jupiter.api.Test;

class ChunkerTest {

    private static final long MB = 1_000_000L;

    @Test
    void sortsBySizeAndCutsAtFileAndByteLimits() {
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            files.add(new FileTransfer("/s/" + i, "/d/" + i, (7 - i) * 10L));
        }
        List<TransferChunk> chunks = new Chunker(3, 1000).cut(UUID.randomUUID(), files);
        assertThat(chunks).extracting(c -> c.files().size()).containsExactly(3, 3, 1);
        assertThat(chunks.get(0).files()).extracting(FileTransfer::sizeBytes).containsExactly(10L, 20L, 30L);
        assertThat(chunks).extracting(TransferChunk::chunkId).containsExactly(0, 1, 2);

        List<TransferChunk> byBytes = new Chunker(100, 55).cut(UUID.randomUUID(), files);
        assertThat(byBytes.get(0).files()).extracting(FileTransfer::sizeBytes).containsExactly(10L, 20L);
        // a file larger than the byte limit still gets a chunk of its own
        List<TransferChunk> huge = new Chunker(100, 5).cut(UUID.randomUUID(), files);
        assertThat(huge).hasSize(7);
    }

    @Test
    void emptyPlanHasNoChunks() {
        assertThat(new Chunker(500, 1L << 30).cut(UUID.randomUUID(), List.of())).isEmpty();
    }

    @Test
    void tuningFollowsTheGlobusHeuristics() {
        List<FileTransfer> manySmall = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            manySmall.add(new FileTransfer("/s" + i, "/d" + i, MB));
        }
        assertThat(ChunkTuning.forFiles(manySmall)).isEqualTo(new ChunkTuning(2, 2, 20));
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", 300 * MB))))
                .isEqualTo(new ChunkTuning(2, 8, 5));
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", MB))))
                .isEqualTo(new ChunkTuning(2, 4, 10));
    }
}
