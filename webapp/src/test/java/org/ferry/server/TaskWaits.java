package org.ferry.server;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Waits for a task to leave ACTIVE, or for a timer's run history to reach a state, polling the API
 * with Awaitility (both are events the service controls), at most 120 s.
 */
final class TaskWaits {

    private TaskWaits() {}

    static JsonNode ended(ApiClient api, String taskId) {
        return await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(100))
                .alias("task " + taskId + " leaves ACTIVE")
                .until(
                        () -> api.get("/v0.10/task/" + taskId).body(),
                        task -> !"ACTIVE".equals(task.get("status").asString()));
    }

    /**
     * @param done what the runs ({@code GET /v0.10/timer/{id}/runs}, oldest first) must show
     * @return the runs once they show it
     */
    static List<JsonNode> timerRuns(ApiClient api, String timerId, Predicate<List<JsonNode>> done) {
        return await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(100))
                .alias("the runs of timer " + timerId)
                .until(
                        () -> {
                            List<JsonNode> runs = new ArrayList<>();
                            api.get("/v0.10/timer/" + timerId + "/runs")
                                    .body()
                                    .get("runs")
                                    .forEach(runs::add);
                            return runs;
                        },
                        done);
    }
}
