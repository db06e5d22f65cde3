package org.ferry.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Waits for a task to leave ACTIVE, or for a timer's run history to reach a state, polling the API
 * (both are events the service controls), at most 120 s.
 */
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

    /**
     * @param done what the runs ({@code GET /v0.10/timer/{id}/runs}, oldest first) must show
     * @return the runs once they show it
     */
    static List<JsonNode> timerRuns(ApiClient api, String timerId, Predicate<List<JsonNode>> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> runs = new ArrayList<>();
            api.get("/v0.10/timer/" + timerId + "/runs").body().get("runs").forEach(runs::add);
            if (done.test(runs)) {
                return runs;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timer " + timerId + " runs after 120 s: "
                + api.get("/v0.10/timer/" + timerId + "/runs").body());
    }
}
