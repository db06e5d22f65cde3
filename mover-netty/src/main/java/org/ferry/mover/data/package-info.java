/**
 * The GridFTP data transfer process (DTP): data connections in stream mode (RFC 959 section 3.4.1)
 * and extended block mode (GFD.020), as Netty handlers each doing one thing. Entry point:
 * {@link org.ferry.mover.data.DataChannels}.
 */
package org.ferry.mover.data;
