package org.ferry.cli;

/** Where a task's progress is shown while the CLI polls it (standard error). */
public interface ProgressView {
    /** Shows nothing ({@code -q}). */
    ProgressView NONE = new ProgressView() {
        @Override
        public void update(TaskProgress progress) {}

        @Override
        public void finish() {}
    };

    /**
     * Shows the latest poll.
     *
     * @param progress the task's figures
     */
    void update(TaskProgress progress);

    /** Ends the display (e.g. moves past a bar drawn in place) before the final output. */
    void finish();
}
