/**
 * The scheduler's durable task state in SQL (H2 and PostgreSQL alike): leases, counters, events,
 * file (subtask) rows and chunks. Every change is a conditional single-statement update guarded by
 * the row's state (and chunk, attempt), so that results delivered twice, a cancel racing a mover,
 * or two ferry-server instances cannot undo each other.
 */
package org.ferry.scheduler.state;
