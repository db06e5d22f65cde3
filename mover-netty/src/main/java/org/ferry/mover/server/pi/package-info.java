/**
 * The protocol interpreter (PI) core of Ferry's GridFTP server: a control channel session and its
 * state ({@link org.ferry.mover.server.pi.ControlSession}), what a command handler gets
 * ({@link org.ferry.mover.server.pi.CommandContext}), the handler interface and the command table
 * ({@link org.ferry.mover.server.pi.CommandHandler}, {@link org.ferry.mover.server.pi.CommandRegistry}),
 * the reply-bearing exception, the GSI login gate and protection, and the server's settings. The
 * handlers ({@code server.command}), the transfer runner ({@code server.transfer}) and the DTPs
 * ({@code server.dtp}) build on it; {@link org.ferry.mover.server.GridFtpServer} wires them all.
 */
package org.ferry.mover.server.pi;
