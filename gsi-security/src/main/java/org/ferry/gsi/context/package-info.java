/**
 * GSS-API-style security contexts for the GridFTP control channel (RFC 2228 AUTH/ADAT with the
 * GSI mechanism, reference 4.1-4.3): a TLS handshake carried in opaque tokens over an
 * {@link javax.net.ssl.SSLEngine}, GSI delegation after it, and wrap/unwrap for MIC/ENC commands
 * and 631/632 replies. The protocol code in mover-netty sees only {@link org.ferry.gsi.context.SecurityContext}.
 */
package org.ferry.gsi.context;
