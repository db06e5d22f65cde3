/**
 * The optimizer per (source, destination) endpoint pair (docs/optimizer.md; FTS3's optimizer,
 * reference/service-semantics.md b.10): every interval it folds the pair's measured throughput
 * into an exponential moving average, takes the success rate, and moves the pair's session pairs
 * (concurrency, across all tasks and users) by one within the admins' limits; the dispatcher
 * honours the value. Each decision is stored with its inputs and reason.
 */
package org.ferry.scheduler.optimize;
