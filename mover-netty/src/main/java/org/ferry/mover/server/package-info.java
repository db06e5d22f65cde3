/**
 * The GridFTP server protocol interpreter (PI): control channel sessions on Netty, dispatching
 * commands to one handler per verb ({@link org.ferry.mover.server.command}), with file system
 * work on the storage interface ({@link org.ferry.mover.storage}) and data moved by the data
 * transfer process ({@link org.ferry.mover.data}). Entry point: {@link GridFtpServer#start}.
 */
package org.ferry.mover.server;
