/**
 * The work-queue protocol between the scheduler and the movers, free of any transport: chunk
 * messages (what to move, with the endpoints' logins and the ranges already acknowledged), result
 * messages (files arrived, faults, restart markers, progress, chunk done) and control messages
 * (cancel a task or a chunk); their versioned JSON form ({@link org.ferry.mover.queue.MessageCodec},
 * Jackson); and {@link org.ferry.mover.queue.ChunkExecutor}, which runs chunk messages with the
 * chunk runner and reports results to a {@link org.ferry.mover.queue.ResultSink}. The embedded
 * mover of ferry-server passes the messages in memory; ferry-mover passes them through Kafka.
 */
package org.ferry.mover.queue;
