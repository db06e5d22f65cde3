/**
 * The protocol interpreter (PI) core of Ferry's GridFTP server: a control channel session and its
 * state ({@link org.ferry.mover.server.pi.ControlSession}), what a command handler gets
 * ({@link org.ferry.mover.server.pi.CommandContext}), the handler interface and the command table
 * ({@link org.ferry.mover.server.pi.CommandHandler}, {@link org.ferry.mover.server.pi.CommandRegistry}),
 * the reply-bearing exception, the GSI login gate and protection, the server's settings, and each
 * session's transfer runner ({@link org.ferry.mover.server.pi.TransferRunner}: the replies and
 * markers around a data transfer, which the data transfer processes of {@code server.dtp} run).
 * The handlers ({@code server.command}) build on it; {@link org.ferry.mover.server.GridFtpServer}
 * wires them all.
 */
package org.ferry.mover.server.pi;
