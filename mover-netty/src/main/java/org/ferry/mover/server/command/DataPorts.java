package org.ferry.mover.server.command;

import java.net.InetSocketAddress;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.server.pi.FtpException;

/**
 * The server's reading of PORT, EPRT and SPOR addresses ({@link HostPort}), with its replies:
 * 501 for a malformed argument, 522 for an EPRT protocol it does not speak (RFC 2428 section 2),
 * and 504 for a port below 1024 (the FTP bounce attack, RFC 2577 section 3).
 */
final class DataPorts {

    /** Lowest port a data connection may go to; below are the well-known services (RFC 2577 section 3). */
    static final int FIRST_UNPRIVILEGED_PORT = 1024;

    private DataPorts() {}

    /**
     * @param text {@code h1,h2,h3,h4,p1,p2}
     * @return the address
     * @throws FtpException {@code 501 Illegal PORT command.} when malformed or port 0
     */
    static InetSocketAddress parsePort(String text) throws FtpException {
        try {
            return HostPort.parse(text);
        } catch (IllegalArgumentException e) {
            throw new FtpException(501, "Illegal PORT command.");
        }
    }

    /**
     * @param text an EPRT argument
     * @return the address
     * @throws FtpException 522 for a protocol other than 1 or 2, 501 when malformed
     */
    static InetSocketAddress parseEprt(String text) throws FtpException {
        try {
            return HostPort.parseEprt(text);
        } catch (HostPort.UnsupportedProtocolException e) {
            throw new FtpException(522, "Network protocol not supported, use (1,2).");
        } catch (IllegalArgumentException e) {
            throw new FtpException(501, "Malformed argument.");
        }
    }

    /**
     * Refuses a PORT/EPRT/SPOR target on a privileged port: the FTP bounce attack (RFC 2577
     * section 3) makes a server connect to another host's service port (SMTP, SSH, ...) and send it
     * bytes of the client's choosing. The host is not checked: a third-party transfer points this
     * server at another server (RFC 959 section 5.2), whose data ports are ephemeral.
     *
     * @param target a parsed data connection target
     * @return {@code target}
     * @throws FtpException {@code 504 Command not implemented for that parameter.} for a port below 1024
     */
    static InetSocketAddress unprivileged(InetSocketAddress target) throws FtpException {
        if (target.getPort() < FIRST_UNPRIVILEGED_PORT) {
            throw new FtpException(
                    504,
                    "Command not implemented for that parameter: data connections to ports below "
                            + FIRST_UNPRIVILEGED_PORT + " are refused.");
        }
        return target;
    }
}
