package org.ferry.scheduler.execution;

import org.ferry.api.domain.EventCode;

/** The {@code NO_CREDENTIALS} event of a task that goes INACTIVE: which endpoint, and what to do. */
public final class Suspension {

    private Suspension() {}

    /**
     * @param what what happened, e.g. the mover's words about an expired credential
     * @return the fault, telling the owner that the task resumes by itself after activation
     */
    public static Fault fault(String what) {
        String text = what.strip();
        return new Fault(
                EventCode.NO_CREDENTIALS,
                text + (text.endsWith(".") ? "" : ".")
                        + " The task is INACTIVE: it keeps what it has moved and resumes by itself when the endpoint"
                        + " is activated again before the deadline.");
    }
}
