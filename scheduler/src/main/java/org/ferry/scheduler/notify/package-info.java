/**
 * E-mail notifications of tasks ({@code notify_on_succeeded}, {@code notify_on_failed},
 * {@code notify_on_inactive}): the outbox sender, the message and what it reads.
 */
package org.ferry.scheduler.notify;
