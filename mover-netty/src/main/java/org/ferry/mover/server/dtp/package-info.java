/**
 * The boundary between the server protocol interpreter (PI) and its data transfer processes
 * (DTPs), as in the Globus striped server (SC'05 paper, section 5, Figure 1: PI and DTP talk over
 * an "Internal IPC API"). {@link org.ferry.mover.server.dtp.DataTransferProcess} is one DTP: the
 * in-process {@link org.ferry.mover.server.dtp.LocalDtp} or a data node reached over the internal
 * link, {@link org.ferry.mover.server.dtp.RemoteDtp}. Every transfer goes through it: a plain one
 * is the one-stripe case, a {@link org.ferry.mover.server.dtp.PlainSend} or
 * {@link org.ferry.mover.server.dtp.PlainReceive} that the server's own DTP runs whole; a striped
 * one is a request per stripe, which {@link org.ferry.mover.server.dtp.StripedDtp} spreads over
 * several DTPs (SPAS/SPOR, {@code StripeLayout=Blocked}). Each session's transfer runner
 * ({@code server.pi.TransferRunner}) runs them for the transfer commands, with the control
 * channel's replies around them. {@link org.ferry.mover.server.dtp.DataNode} is the data node
 * process's side of the link: it runs a {@code LocalDtp} for its head.
 */
package org.ferry.mover.server.dtp;
