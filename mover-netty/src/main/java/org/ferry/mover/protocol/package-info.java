/**
 * The GridFTP protocol vocabulary both the server and the client speak: command lines and their
 * decoder (RFC 959 section 4.1, RFC 2640 UTF-8, RFC 2228 security commands), replies and their
 * encoder (RFC 959 section 4.2), byte ranges of restart markers and {@code REST} (GFD.020
 * "Restarting"), MLSx facts (RFC 3659 section 7) and the tar stream module of {@code ERET}/
 * {@code ESTO}. Knows nothing of sessions, storage or data channels.
 */
package org.ferry.mover.protocol;
