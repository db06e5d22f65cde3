/** Timers: recurring transfers as Quartz triggers in Ferry's database (JDBC job store, clustered). */
package org.ferry.scheduler.timer;
