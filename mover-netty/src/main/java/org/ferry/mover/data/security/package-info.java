/**
 * Data channel security (DCAU and PROT; GFD.020 GSI appendix, RFC 2228 section 3,
 * GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)): {@link org.ferry.mover.data.security.DataChannelSecurity}
 * puts, at the front of every data connection of one transfer, either a GSI handshake that then
 * steps aside (PROT C) or an {@code SslHandler} on its own engine (PROT S/P). Nothing here runs
 * when DCAU is N.
 */
package org.ferry.mover.data.security;
