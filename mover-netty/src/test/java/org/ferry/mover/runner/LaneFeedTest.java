package org.ferry.mover.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LaneFeedTest {

    private static List<FileTransfer> files(int count, long sizeBytes) {
        List<FileTransfer> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            files.add(new FileTransfer("/s/" + sizeBytes + "-" + i, "/d/" + sizeBytes + "-" + i, sizeBytes));
        }
        return files;
    }

    private static List<LaneFeed.Work> drain(LaneFeed feed) {
        List<LaneFeed.Work> all = new ArrayList<>();
        LaneFeed.Work work;
        while ((work = feed.next()) != null) {
            all.add(work);
        }
        return all;
    }

    @Test
    void aRunOfSmallFilesIsSharedBetweenTheLanesNotTakenWholeByOne() {
        // 150 small files: the tuning's concurrency 2 and pipelining 20 (more than 100 files under 50 MB)
        LaneFeed feed = new LaneFeed(files(150, 4096), 2, 20);
        LaneFeed.Work first = feed.next();
        assertThat(first.pipelined()).isTrue();
        assertThat(first.files()).hasSize(75);
        LaneFeed.Work second = feed.next();
        assertThat(second.files()).as("what the other lane finds").hasSize(38);
        // the share shrinks with what is left, down to the pipelining
        List<Integer> rest = drain(feed).stream().map(w -> w.files().size()).toList();
        assertThat(rest).containsExactly(20, 17);
    }

    @Test
    void everyFileIsHandedOutOnceInOrderWithBigFilesAlone() {
        List<FileTransfer> chunk = new ArrayList<>(files(300, 1000));
        chunk.addAll(files(3, LaneFeed.BATCH_FILE_MAX_BYTES + 1));
        List<LaneFeed.Work> works = drain(new LaneFeed(chunk, 3, 20));
        List<FileTransfer> handedOut =
                works.stream().flatMap(w -> w.files().stream()).toList();
        assertThat(handedOut).hasSameSizeAs(chunk).containsExactlyInAnyOrderElementsOf(chunk);
        // small files keep the chunk's order (a big file met by a batch goes back to the queue's end)
        assertThat(handedOut.subList(0, 300)).containsExactlyElementsOf(chunk.subList(0, 300));
        for (LaneFeed.Work work : works) {
            boolean big = work.files().get(0).sizeBytes() > LaneFeed.BATCH_FILE_MAX_BYTES;
            assertThat(work.pipelined()).isEqualTo(!big);
            if (big) {
                assertThat(work.files()).hasSize(1);
            } else {
                assertThat(work.files()).allMatch(f -> f.sizeBytes() <= LaneFeed.BATCH_FILE_MAX_BYTES);
            }
        }
        assertThat(works.get(0).files()).hasSize(101); // a third of the 303 files
    }

    @Test
    void batchesStayWithinTheFileAndByteLimits() {
        // one lane: its share is everything, but a batch stops at 200 files
        assertThat(drain(new LaneFeed(files(500, 10), 1, 20)))
                .extracting(w -> w.files().size())
                .containsExactly(200, 200, 100);
        // 16 MiB files: about 256 MiB per batch
        List<LaneFeed.Work> works = drain(new LaneFeed(files(40, LaneFeed.BATCH_FILE_MAX_BYTES), 1, 20));
        assertThat(works).extracting(w -> w.files().size()).containsExactly(16, 16, 8);
        // a few files: the share is at least the pipelining, so small chunks are not cut finer
        assertThat(drain(new LaneFeed(files(12, 10), 2, 10)))
                .extracting(w -> w.files().size())
                .containsExactly(10, 2);
    }

    @Test
    void withoutPipeliningEveryFileMovesAlone() {
        List<LaneFeed.Work> works = drain(new LaneFeed(files(5, 10), 2, 1));
        assertThat(works).hasSize(5).allMatch(w -> !w.pipelined() && w.files().size() == 1);
    }

    @Test
    void lanesTakingAtOnceGetEachFileExactlyOnce() throws Exception {
        List<FileTransfer> chunk = files(2000, 10);
        LaneFeed feed = new LaneFeed(chunk, 4, 5);
        ConcurrentLinkedQueue<FileTransfer> taken = new ConcurrentLinkedQueue<>();
        ExecutorService lanes = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> batches = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                batches.add(lanes.submit(() -> {
                    go.await();
                    LaneFeed.Work work;
                    while ((work = feed.next()) != null) {
                        taken.addAll(work.files());
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> lane : batches) {
                lane.get(10, TimeUnit.SECONDS);
            }
        } finally {
            lanes.shutdownNow();
        }
        assertThat(taken).hasSize(chunk.size()).containsExactlyInAnyOrderElementsOf(chunk);
    }
}
