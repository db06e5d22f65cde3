/**
 * The work queue port and its adapters: in-process (the embedded mover) and Kafka (ferry-mover
 * processes).
 */
package org.ferry.scheduler.queue;
