package org.ferry.scheduler.execution;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/** The tasks being worked in this JVM. */
@Component
public class TaskExecutions {

    private final Map<UUID, TaskExecution> running = new ConcurrentHashMap<>();

    /**
     * @param execution a new execution
     * @return true if registered, false if the task already runs here
     */
    public boolean register(TaskExecution execution) {
        return running.putIfAbsent(execution.taskId(), execution) == null;
    }

    /** @return whether the task runs here */
    public boolean isRunning(UUID taskId) {
        return running.containsKey(taskId);
    }

    /** @return the task's execution, if it runs here */
    public Optional<TaskExecution> get(UUID taskId) {
        return Optional.ofNullable(running.get(taskId));
    }

    /** Forgets an execution (after it ended). */
    public void remove(TaskExecution execution) {
        running.remove(execution.taskId(), execution);
    }

    /** @return a snapshot of the running executions */
    public Collection<TaskExecution> all() {
        return List.copyOf(running.values());
    }
}
