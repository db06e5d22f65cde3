package org.ferry.server;

import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** Waits for a task to leave ACTIVE, polling the API (the end is an event the task controls). */
final class TaskWaits {

    private TaskWaits() {}

    static JsonNode ended(ApiClient api, String taskId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode task = api.get("/v0.10/task/" + taskId).body();
            if (!"ACTIVE".equals(task.get("status").asString())) {
                return task;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("task " + taskId + " still ACTIVE after 120 s");
    }
}
