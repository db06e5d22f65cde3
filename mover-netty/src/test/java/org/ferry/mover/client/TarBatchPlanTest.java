package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which files travel as tar streams and how batches are cut. */
class TarBatchPlanTest {

    @Test
    void smallSameNamedFilesOfOneDirectoryPairShareATarStep() {
        List<FilePair> files = List.of(
                new FilePair("/a/x", "/b/x"),
                new FilePair("/a/y", "/b/y"),
                new FilePair("/a/big", "/b/big"), // too big
                new FilePair("/a/z", "/b/renamed"), // renamed
                new FilePair("/c/x", "/b/x2"), // renamed too
                new FilePair("/c/p", "/d/p"),
                new FilePair("/c/q", "/d/q"),
                new FilePair("/a/w", "/b/w"));
        long[] sizes = {10, 20, TarBatchPlan.MAX_FILE_BYTES + 1, 5, 5, 0, 7, 30};
        List<TarBatchPlan.Step> steps = TarBatchPlan.steps(files, sizes, true);
        List<Integer> covered = new ArrayList<>();
        steps.forEach(s -> covered.addAll(s.files()));
        assertThat(covered).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(steps)
                .filteredOn(TarBatchPlan.Step::isTar)
                .extracting(TarBatchPlan.Step::files)
                .containsExactly(List.of(0, 1, 7), List.of(5, 6));
        assertThat(steps)
                .filteredOn(s -> s.files().equals(List.of(0, 1, 7)))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.sourceCommand()).isEqualTo("ERET TAR=\"x/y/w\" /a");
                    assertThat(s.destinationCommand()).isEqualTo("ESTO TAR=\"\" /b");
                });
        assertThat(steps)
                .filteredOn(s -> !s.isTar())
                .extracting(TarBatchPlan.Step::sourceCommand)
                .containsExactly("RETR /a/big", "RETR /a/z", "RETR /c/x");
    }

    @Test
    void withoutTheModuleEveryFileIsItsOwnStepInOrder() {
        List<FilePair> files = List.of(new FilePair("/a/x", "/b/x"), new FilePair("/a/y", "/b/y"));
        assertThat(TarBatchPlan.steps(files, new long[] {1, 2}, false))
                .extracting(TarBatchPlan.Step::sourceCommand)
                .containsExactly("RETR /a/x", "RETR /a/y");
    }

    @Test
    void batchesAreCutByBytesAndByCommandLength() {
        List<FilePair> files = new ArrayList<>();
        int count = 1000;
        long[] sizes = new long[count];
        for (int i = 0; i < count; i++) {
            String name = String.format("a-rather-long-file-name-number-%05d.dat", i);
            files.add(new FilePair("/src/" + name, "/dst/" + name));
            sizes[i] = 100_000;
        }
        List<TarBatchPlan.Step> steps = TarBatchPlan.steps(files, sizes, true);
        assertThat(steps).allSatisfy(s -> {
            assertThat(s.isTar()).isTrue();
            assertThat(s.sourceCommand().length()).isLessThanOrEqualTo(TarBatchPlan.MAX_COMMAND_CHARS);
            assertThat(s.files().size() * (512L + 100_352)).isLessThanOrEqualTo(TarBatchPlan.MAX_BATCH_BYTES);
        });
        assertThat(steps.stream().mapToInt(s -> s.files().size()).sum()).isEqualTo(count);
        assertThat(steps.size()).isGreaterThan(count * 40 / TarBatchPlan.MAX_COMMAND_CHARS);
    }
}
