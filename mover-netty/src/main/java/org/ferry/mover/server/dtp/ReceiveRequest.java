package org.ferry.mover.server.dtp;

/**
 * What the PI asks one DTP to receive: the whole of a plain transfer ({@link PlainReceive}: the one
 * stripe, in the server's own process) or one stripe of a striped one ({@link StripeReceiveRequest},
 * which a data node can run as well: it names the file by path).
 */
public sealed interface ReceiveRequest permits PlainReceive, StripeReceiveRequest {}
