/** Ferry scheduler. */
package org.ferry.scheduler;
