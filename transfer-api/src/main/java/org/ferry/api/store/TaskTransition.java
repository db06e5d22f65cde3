package org.ferry.api.store;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.ferry.api.domain.TaskStatus;

/**
 * Every change of a task's status there is (the Globus task state machine, service-semantics b.4):
 * the table {@link TaskStore} writes by. Each update is conditional on the {@link #from} states,
 * so a transition from any other state changes nothing (the first end of a task wins: a cancel
 * racing a completion, two instances ending one task); {@link #between} refuses a move the table
 * does not list. SUCCEEDED and FAILED are final.
 */
public enum TaskTransition {
    /** An endpoint's credential is missing or expired: the task waits for its activation. */
    SUSPEND(TaskStatus.INACTIVE, EnumSet.of(TaskStatus.ACTIVE)),
    /** The endpoint was activated again: the task goes on from its file rows. */
    RESUME(TaskStatus.ACTIVE, EnumSet.of(TaskStatus.INACTIVE)),
    /** Every file arrived or was skipped (and a mirror deleted the destination's extras). */
    SUCCEED(TaskStatus.SUCCEEDED, EnumSet.of(TaskStatus.ACTIVE)),
    /** A permanent fault, or the deadline passed (ACTIVE or INACTIVE). */
    FAIL(TaskStatus.FAILED, EnumSet.of(TaskStatus.ACTIVE, TaskStatus.INACTIVE)),
    /** The owner or an admin cancelled it. */
    CANCEL(TaskStatus.FAILED, EnumSet.of(TaskStatus.ACTIVE, TaskStatus.INACTIVE));

    private final TaskStatus to;
    private final Set<TaskStatus> from;
    private final String fromSql;

    TaskTransition(TaskStatus to, Set<TaskStatus> from) {
        this.to = to;
        this.from = Set.copyOf(from);
        this.fromSql = from.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(","));
    }

    /** @return the status it leads to */
    public TaskStatus to() {
        return to;
    }

    /** @return the statuses it leaves */
    public Set<TaskStatus> from() {
        return from;
    }

    /** @return {@link #from} as an SQL list, for {@code status in (...)} */
    String fromSql() {
        return fromSql;
    }

    /**
     * @param from the task's status
     * @param to the status asked for
     * @return the first transition of the table between the two
     * @throws IllegalTransitionException if the table has none (e.g. anything out of SUCCEEDED)
     */
    public static TaskTransition between(TaskStatus from, TaskStatus to) {
        for (TaskTransition transition : values()) {
            if (transition.to == to && transition.from.contains(from)) {
                return transition;
            }
        }
        throw new IllegalTransitionException("task", from, to);
    }
}
