package org.ferry.cli;

/** Where {@code ferry wait} shows a task's progress while it polls (standard error). */
public interface ProgressView {
    /**
     * Shows the latest poll.
     *
     * @param progress the task's figures
     */
    void update(TaskProgress progress);

    /** Ends the display (e.g. moves past a bar drawn in place) before the final output. */
    void finish();
}
