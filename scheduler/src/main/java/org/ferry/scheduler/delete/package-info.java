/** DELETE tasks: removing files and directory trees on one endpoint over GridFTP. */
package org.ferry.scheduler.delete;
