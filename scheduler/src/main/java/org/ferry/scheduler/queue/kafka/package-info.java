/** The Kafka adapter of the work queue: chunks to ferry-mover processes, their results back. */
package org.ferry.scheduler.queue.kafka;
