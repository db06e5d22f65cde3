package org.ferry.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.ferry.api.domain.ChunkState;
import org.ferry.api.domain.FileState;
import org.ferry.api.domain.TaskStatus;
import org.junit.jupiter.api.Test;

/** The transition tables list exactly the moves the service makes, and refuse every other. */
class TransitionTablesTest {

    @Test
    void aTaskMovesOnlyAsTheGlobusStateMachineSays() {
        Set<String> allowed =
                Set.of("ACTIVE>INACTIVE", "INACTIVE>ACTIVE", "ACTIVE>SUCCEEDED", "ACTIVE>FAILED", "INACTIVE>FAILED");
        for (TaskStatus from : TaskStatus.values()) {
            for (TaskStatus to : TaskStatus.values()) {
                if (allowed.contains(from + ">" + to)) {
                    assertThat(TaskTransition.between(from, to).to()).isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> TaskTransition.between(from, to))
                            .as(from + " to " + to)
                            .isInstanceOf(IllegalTransitionException.class)
                            .hasMessageContaining(from + " to " + to);
                }
            }
        }
    }

    @Test
    void succeededAndFailedTasksAreFinal() {
        for (TaskTransition transition : TaskTransition.values()) {
            assertThat(transition.from()).doesNotContain(TaskStatus.SUCCEEDED, TaskStatus.FAILED);
        }
        assertThat(TaskTransition.CANCEL.from()).containsExactlyInAnyOrder(TaskStatus.ACTIVE, TaskStatus.INACTIVE);
        assertThat(TaskTransition.SUCCEED.from()).containsExactly(TaskStatus.ACTIVE);
    }

    @Test
    void aFileIsPlannedPendingOrSkippedAndEndsOnce() {
        assertThat(FileTransition.initial()).containsExactlyInAnyOrder(FileState.PENDING, FileState.SKIPPED);
        Set<FileState> finals = EnumSet.of(FileState.SUCCEEDED, FileState.FAILED, FileState.SKIPPED);
        for (FileState from : finals) {
            for (FileState to : FileState.values()) {
                assertThatThrownBy(() -> FileTransition.between(from, to))
                        .isInstanceOf(IllegalTransitionException.class);
            }
        }
        assertThat(FileTransition.between(FileState.PENDING, FileState.ACTIVE)).isEqualTo(FileTransition.DISPATCH);
        assertThat(FileTransition.between(FileState.ACTIVE, FileState.PENDING)).isEqualTo(FileTransition.GIVE_BACK);
        assertThatThrownBy(() -> FileTransition.between(FileState.PENDING, FileState.SUCCEEDED))
                .as("a file arrives only from a chunk")
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void aChunkEndsOnce() {
        assertThat(ChunkTransition.between(ChunkState.ACTIVE, ChunkState.LOST)).isEqualTo(ChunkTransition.LOSE);
        assertThat(ChunkTransition.between(ChunkState.ACTIVE, ChunkState.DONE)).isEqualTo(ChunkTransition.FINISH);
        assertThatThrownBy(() -> ChunkTransition.between(ChunkState.LOST, ChunkState.DONE))
                .isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> ChunkTransition.between(ChunkState.DONE, ChunkState.ACTIVE))
                .isInstanceOf(IllegalTransitionException.class);
    }
}
