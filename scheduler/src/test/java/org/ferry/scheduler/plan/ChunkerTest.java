package org.ferry.scheduler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.junit.jupiter.api.Test;

class ChunkerTest {

    private static final long MB = 1_000_000L;

    private static List<FileTransfer> files(long... sizes) {
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            files.add(new FileTransfer(i + 1, "/s/" + i, "/d/" + i, sizes[i], List.of(), 0));
        }
        return files;
    }

    @Test
    void cutsAtFileAndByteLimits() {
        List<FileTransfer> ready = files(10, 20, 30, 40, 50, 60, 70);
        assertThat(new Chunker(3, 1000).cut(ready))
                .extracting(FileTransfer::sizeBytes)
                .containsExactly(10L, 20L, 30L);
        assertThat(new Chunker(100, 55).cut(ready))
                .extracting(FileTransfer::sizeBytes)
                .containsExactly(10L, 20L);
        // a file larger than the byte limit still gets a chunk of its own
        assertThat(new Chunker(100, 5).cut(ready)).hasSize(1);
    }

    @Test
    void noReadyFilesNoChunk() {
        assertThat(new Chunker(500, 1L << 30).cut(List.of())).isEmpty();
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
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", 10 * MB))))
                .isEqualTo(new ChunkTuning(2, 4, 10));
    }

    @Test
    void aChunkOfAFewSmallFilesGetsOneDataConnectionPerMebibyte() {
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", 1))))
                .isEqualTo(new ChunkTuning(2, 1, 10));
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", 3L << 20))))
                .isEqualTo(new ChunkTuning(2, 3, 10));
        assertThat(ChunkTuning.forFiles(List.of(new FileTransfer("/a", "/b", (3L << 20) + 1))))
                .isEqualTo(new ChunkTuning(2, 4, 10));
    }
}
