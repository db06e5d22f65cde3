package org.ferry.mover.server.dtp;

import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.security.DataChannelSecurity;

/**
 * How one session's plain data connections are made on the DTP in the server's process: the TCP
 * buffer sizes the session asked for (SBUF and the SITE buffer commands, GFD.020 "Buffer Size
 * Negotiation"; 0 keeps the system's default and its autotuning), its data channel security (DCAU
 * and PROT, GFD.020 "DCAU", RFC 2228 section 3; null under DCAU N), and the MODE E connections it
 * keeps between transfers (GFD.020 "Extended Block Mode", data connection reuse).
 *
 * @param sendBufferBytes SO_SNDBUF for new connections, 0 for the default
 * @param receiveBufferBytes SO_RCVBUF for new connections and listeners, 0 for the default
 * @param security the handlers that secure new connections, or null for plain TCP
 * @param cache the session's kept MODE E connections, used and refilled by MODE E transfers
 */
public record SessionChannels(
        int sendBufferBytes, int receiveBufferBytes, DataChannelSecurity security, ModeECache cache) {}
