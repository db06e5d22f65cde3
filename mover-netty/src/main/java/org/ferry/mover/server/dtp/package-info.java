/**
 * The boundary between the server protocol interpreter (PI) and its data transfer processes
 * (DTPs), as in the Globus striped server (SC'05 paper, section 5, Figure 1: PI and DTP talk over
 * an "Internal IPC API"). {@link org.ferry.mover.server.dtp.DataTransferProcess} is one DTP: the
 * in-process {@link org.ferry.mover.server.dtp.LocalDtp} or a data node reached over the internal
 * link, {@link org.ferry.mover.server.dtp.RemoteDtp}. {@link org.ferry.mover.server.dtp.StripedDtp}
 * drives several as the stripes of one transfer (SPAS/SPOR, {@code StripeLayout=Blocked});
 * the server's one transfer runner ({@code server.transfer.TransferRunner}) runs such a transfer
 * for a RETR or STOR with the control channel replies around it. {@link org.ferry.mover.server.dtp.DataNode} is the data
 * node process's side of the link: it runs a {@code LocalDtp} for its head.
 */
package org.ferry.mover.server.dtp;
