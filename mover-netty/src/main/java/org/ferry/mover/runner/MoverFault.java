package org.ferry.mover.runner;

/**
 * A classified failure of one attempt.
 *
 * @param code the kind of fault
 * @param description one line: what was being done and the endpoint's own words
 * @param onSource true if the source endpoint reported it (a missing or unreadable source file:
 *     what {@code skip_source_errors} may skip); false for the destination or unknown
 * @param permanent trying again cannot help: the code's own answer, or a transient fault the
 *     runner gave up on for good ({@link #givenUp})
 */
public record MoverFault(FaultCode code, String description, boolean onSource, boolean permanent) {

    /**
     * A fault as permanent as its code.
     *
     * @param code the kind of fault
     * @param description one line
     * @param onSource true if the source endpoint reported it
     */
    public MoverFault(FaultCode code, String description, boolean onSource) {
        this(code, description, onSource, code.isPermanent());
    }

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
        return permanent;
    }

    /**
     * @return this fault, permanent: for a file that ran out of attempts on a fault that more
     *     attempts will not mend (a checksum that keeps differing)
     */
    public MoverFault givenUp() {
        return new MoverFault(code, description, onSource, true);
    }
}
