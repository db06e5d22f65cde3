package org.ferry.scheduler.execution;

import org.ferry.api.domain.EventCode;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.plan.PlanningException;

/**
 * Maps failures to the task's fault events (service-semantics b.5): planning failures carry
 * their own code; what the GridFTP client throws is classified by the mover's {@link Faults}.
 */
public final class FaultClassifier {

    private FaultClassifier() {}

    /**
     * @param failure what went wrong
     * @param context what was being done, e.g. {@code "Planning the transfer"}
     * @return the fault with a one-line description carrying the server's reply text
     */
    public static Fault classify(Throwable failure, String context) {
        if (failure instanceof PlanningException planning) {
            return new Fault(planning.code(), context + ": " + describe(failure));
        }
        return of(Faults.classify(failure, context));
    }

    /**
     * @param fault a mover's fault
     * @return the same fault as a task event (the codes share their names)
     */
    public static Fault of(MoverFault fault) {
        return new Fault(EventCode.valueOf(fault.code().name()), fault.description());
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message.strip();
    }
}
