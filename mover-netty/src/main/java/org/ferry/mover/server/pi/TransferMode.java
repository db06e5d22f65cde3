package org.ferry.mover.server.pi;

/** Transmission modes accepted by MODE (RFC 959 section 3.4; GFD.020 "Extended Block Mode"). */
public enum TransferMode {
    /** MODE S: one connection, end of data = close. */
    STREAM,
    /** MODE E: 17-byte block headers, parallel connections, sender connects. */
    EXTENDED_BLOCK
}
