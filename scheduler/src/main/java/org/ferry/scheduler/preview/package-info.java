/** Dry runs: planning a transfer document without storing or changing anything. */
package org.ferry.scheduler.preview;
