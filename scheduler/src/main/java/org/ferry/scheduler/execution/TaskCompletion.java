package org.ferry.scheduler.execution;

import java.util.UUID;
import org.springframework.stereotype.Component;

/** Ends executions: writes the end to the database, stops the workers, forgets the execution. */
@Component
public class TaskCompletion {

    private final TaskRecorder recorder;
    private final TaskExecutions executions;

    /**
     * @param recorder database writes
     * @param executions the running executions
     */
    public TaskCompletion(TaskRecorder recorder, TaskExecutions executions) {
        this.recorder = recorder;
        this.executions = executions;
    }

    /** Ends the task SUCCEEDED (unless it had already ended, e.g. cancelled). */
    public void succeed(TaskExecution execution) {
        try {
            recorder.finish(execution, null);
        } finally {
            execution.stop();
            executions.remove(execution);
        }
    }

    /** Stops the workers first (so no file starts after the failure), then ends the task FAILED. */
    public void fail(TaskExecution execution, Fault fatal) {
        execution.stop();
        try {
            recorder.finish(execution, fatal);
        } finally {
            executions.remove(execution);
        }
    }

    /**
     * Stops the workers and suspends the task (INACTIVE) until an endpoint is activated again:
     * what moved stays recorded; a resumed task re-plans and skips it.
     *
     * @param fault the {@code NO_CREDENTIALS} fault saying which endpoint and what to do
     */
    public void suspend(TaskExecution execution, Fault fault) {
        execution.stop();
        try {
            recorder.suspend(execution, fault);
        } finally {
            executions.remove(execution);
        }
    }

    /**
     * Stops the workers of a task and forgets the execution, leaving the task ACTIVE, so that the
     * caller can plan it afresh (an endpoint's credential was replaced).
     */
    public void restart(TaskExecution execution) {
        execution.stop();
        try {
            recorder.flush(execution);
        } finally {
            executions.remove(execution);
        }
    }

    /** Stops the workers of a task the API already ended (cancel). */
    public void stopped(UUID taskId) {
        executions.get(taskId).ifPresent(execution -> {
            execution.stop();
            recorder.flush(execution);
            executions.remove(execution);
        });
    }
}
