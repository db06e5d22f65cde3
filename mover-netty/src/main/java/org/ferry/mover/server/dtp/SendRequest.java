package org.ferry.mover.server.dtp;

/**
 * What the PI asks one DTP to send: the whole of a plain transfer ({@link PlainSend}: the one
 * stripe, in the server's own process) or one stripe of a striped one ({@link StripeSendRequest},
 * which a data node can run as well: it names the file by path).
 */
public sealed interface SendRequest permits PlainSend, StripeSendRequest {}
