/** The embedded adapter of the work queue: a mover in the ferry-server JVM. */
package org.ferry.scheduler.queue.embedded;
