/** Executing tasks: coordinator, mover worker and lanes, retries, faults, progress, cancel, deadline. */
package org.ferry.scheduler.execution;
