/**
 * The GridFTP client: control channel (RFC 959 replies incl. multi-line and 1xx markers), login,
 * MLSD/MLST (RFC 3659), CKSM, two-party transfers in stream mode and MODE E (GFD.020), and
 * third-party transfers. Entry point: {@link org.ferry.mover.client.GridFtpClient}.
 */
package org.ferry.mover.client;
