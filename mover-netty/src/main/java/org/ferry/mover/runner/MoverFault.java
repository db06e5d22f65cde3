package org.ferry.mover.runner;

/**
 * A classified failure of one attempt.
 *
 * @param code the kind of fault
 * @param description one line: what was being done and the endpoint's own words
 * @param onSource true if the source endpoint reported it (a missing or unreadable source file:
 *     what {@code skip_source_errors} may skip); false for the destination or unknown
 */
public record MoverFault(FaultCode code, String description, boolean onSource) {

    /**
     * A fault not tied to the source.
     *
     * @param code the kind of fault
     * @param description one line
     */
    public MoverFault(FaultCode code, String description) {
        this(code, description, false);
    }

    /** @return whether trying again cannot help */
    public boolean isPermanent() {
        return code.isPermanent();
    }
}
