package org.ferry.mover.runner;

/**
 * A classified failure of one attempt.
 *
 * @param code the kind of fault
 * @param description one line: what was being done and the endpoint's own words
 */
public record MoverFault(FaultCode code, String description) {}
