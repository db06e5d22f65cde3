/**
 * Ferry's GridFTP server: {@link org.ferry.mover.server.GridFtpServer} binds the control channel and
 * wires the protocol interpreter ({@link org.ferry.mover.server.pi}), one handler per verb
 * ({@link org.ferry.mover.server.command}), file system work on the storage interface
 * ({@link org.ferry.mover.storage}) and data moved by the data transfer processes
 * ({@link org.ferry.mover.server.dtp}, {@link org.ferry.mover.data}). Nothing below depends on this
 * package: it is the top of the server.
 */
package org.ferry.mover.server;
