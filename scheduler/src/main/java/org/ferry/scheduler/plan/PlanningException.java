package org.ferry.scheduler.plan;

import org.ferry.api.domain.EventCode;

/** A transfer item that cannot be planned however often it is retried (e.g. a file where a directory is needed). */
public class PlanningException extends Exception {

    private final EventCode code;

    /**
     * @param code the fault code
     * @param message what is wrong, naming the path
     */
    public PlanningException(EventCode code, String message) {
        super(message);
        this.code = code;
    }

    /** @return the fault code */
    public EventCode code() {
        return code;
    }
}
