package org.ferry.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (a tool, a browser, a container engine): without it the test
 * is skipped with the reason, except under CI ({@code CI} set and not {@code false} or {@code 0}),
 * where {@code .ci/run} must have provided it and its absence fails the test. No skip is silent
 * in CI.
 */
public final class Prerequisites {

    private Prerequisites() {}

    /**
     * @param available whether the machine has it
     * @param missing what is missing and how to get it, for the skip or the failure
     * @throws IllegalStateException under CI when it is not available
     * @throws org.opentest4j.TestAbortedException elsewhere when it is not available (a skip)
     */
    public static void require(boolean available, String missing) {
        if (available) {
            return;
        }
        if (underCi()) {
            throw new IllegalStateException(missing + " (CI: .ci/run must provide it)");
        }
        Assumptions.abort(missing);
    }

    /** @return true when the environment variable CI says this is a CI run */
    public static boolean underCi() {
        String ci = System.getenv("CI");
        return ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false") && !ci.equals("0");
    }
}
