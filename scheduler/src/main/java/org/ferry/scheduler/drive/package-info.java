/**
 * Drives the tasks this ferry-server instance leases: plans them into file rows, dispatches
 * chunks fairly to the work queue, applies the movers' results idempotently, retries transient
 * faults with back-off until the deadline, and ends tasks.
 */
package org.ferry.scheduler.drive;
