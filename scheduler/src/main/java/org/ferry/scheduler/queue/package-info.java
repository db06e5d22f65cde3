/** Work queue port (Kafka-shaped) and its in-process adapter; chunk messages. */
package org.ferry.scheduler.queue;
