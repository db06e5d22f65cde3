/**
 * The scheduler's own rows beside the task store: the e-mail outbox ({@code task_notification})
 * and the timers' ticks ({@code timer}, {@code timer_run}), in SQL (H2 and PostgreSQL alike).
 * Task, file and chunk state belongs to {@code org.ferry.api.store}.
 */
package org.ferry.scheduler.state;
