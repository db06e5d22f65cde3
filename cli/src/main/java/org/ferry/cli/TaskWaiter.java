package org.ferry.cli;

import java.io.PrintWriter;
import java.util.Map;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.ApiUnreachableException;
import org.ferry.cli.api.FerryApiClient;
import tools.jackson.databind.JsonNode;

/**
 * Polls {@code GET /v0.10/task/{id}} until the task ends or a timeout passes, showing progress
 * on a {@link ProgressView}. Up to {@value #MAX_TRANSIENT_FAILURES} failed polls in a row (API
 * unreachable or HTTP 5xx, e.g. while the server restarts) are reported as warnings and
 * retried; more, or a 4xx, are thrown.
 */
final class TaskWaiter {
    /**
     * Consecutive transient failures tolerated: a wait lasts hours and should outlive a server
     * restart or a proxy hiccup.
     */
    static final int MAX_TRANSIENT_FAILURES = 5;

    /**
     * How a wait ended.
     *
     * @param task the last task document read (null if none could be read)
     * @param timedOut whether the timeout passed before the task ended
     */
    record Outcome(JsonNode task, boolean timedOut) {
        /** @return whether the task ended SUCCEEDED */
        boolean succeeded() {
            return !timedOut
                    && task != null
                    && "SUCCEEDED".equals(task.path("status").asString());
        }
    }

    private final FerryApiClient client;
    private final PrintWriter err;
    private final ProgressView view;

    /**
     * @param client the API
     * @param err where warnings go
     * @param view where progress goes
     */
    TaskWaiter(FerryApiClient client, PrintWriter err, ProgressView view) {
        this.client = client;
        this.err = err;
        this.view = view;
    }

    /**
     * @param taskId the task
     * @param timeoutSeconds give up after this long, or null for never
     * @param pollSeconds seconds between polls
     * @return the outcome
     * @throws ApiException on a 4xx, or on more transient failures than tolerated
     * @throws ApiUnreachableException when the API stays unreachable
     * @throws InterruptedException when interrupted while sleeping
     */
    Outcome await(String taskId, Double timeoutSeconds, double pollSeconds) throws InterruptedException {
        long start = System.nanoTime();
        long timeoutNanos = timeoutSeconds == null ? Long.MAX_VALUE : nanos(timeoutSeconds);
        String path = "/task/" + FerryApiClient.segment(taskId);
        int failures = 0;
        JsonNode last = null;
        while (true) {
            try {
                last = client.get(path, Map.of());
                failures = 0;
                TaskProgress progress = TaskProgress.of(last);
                view.update(progress);
                if (progress.ended()) {
                    view.finish();
                    return new Outcome(last, false);
                }
            } catch (ApiUnreachableException | ApiException e) {
                boolean transientFailure = e instanceof ApiUnreachableException
                        || (e instanceof ApiException api && api.httpStatus() >= 500);
                view.finish();
                if (!transientFailure || ++failures > MAX_TRANSIENT_FAILURES) {
                    throw e;
                }
                err.println(
                        "Warning: " + e.getMessage() + " (retrying, " + failures + "/" + MAX_TRANSIENT_FAILURES + ")");
                err.flush();
            }
            long remaining = timeoutNanos - (System.nanoTime() - start);
            if (remaining <= 0) {
                view.finish();
                return new Outcome(last, true);
            }
            long sleep = Math.min(nanos(pollSeconds), remaining);
            Thread.sleep(sleep / 1_000_000L, (int) (sleep % 1_000_000L));
        }
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1_000_000_000L);
    }
}
