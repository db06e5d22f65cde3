package org.ferry.mover.server.command;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.ferry.mover.server.pi.FtpException;

/**
 * Address formats of PORT/PASV (RFC 959 section 4.1.2: {@code h1,h2,h3,h4,p1,p2}) and EPRT/EPSV
 * (RFC 2428: {@code |1|1.2.3.4|5000|}, {@code (|||port|)}). Stateless.
 */
final class HostPort {

    private HostPort() {
    }

    /**
     * @param text {@code h1,h2,h3,h4,p1,p2}, each 0..255
     * @return the address
     * @throws FtpException {@code 501 Illegal PORT command.} when malformed or port 0
     */
    static InetSocketAddress parsePort(String text) throws FtpException {
        String[] parts = text.strip().split(",", -1);
        if (parts.length != 6) {
            throw new FtpException(501, "Illegal PORT command.");
        }
        byte[] address = new byte[4];
        int[] values = new int[6];
        for (int i = 0; i < 6; i++) {
            try {
                values[i] = Integer.parseInt(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new FtpException(501, "Illegal PORT command.");
            }
            if (values[i] < 0 || values[i] > 255) {
                throw new FtpException(501, "Illegal PORT command.");
            }
            if (i < 4) {
                address[i] = (byte) values[i];
            }
        }
        int port = values[4] * 256 + values[5];
        if (port == 0) {
            throw new FtpException(501, "Illegal PORT command.");
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), port);
        } catch (UnknownHostException e) {
            throw new FtpException(501, "Illegal PORT command.");
        }
    }

    /**
     * @param text {@code <d>proto<d>address<d>port<d>} with any delimiter {@code d} (RFC 2428 section 2)
     * @return the address
     * @throws FtpException 522 for a protocol other than 1 or 2, 501 when malformed
     */
    static InetSocketAddress parseEprt(String text) throws FtpException {
        String s = text.strip();
        if (s.length() < 7) {
            throw new FtpException(501, "Malformed argument.");
        }
        char delimiter = s.charAt(0);
        String[] parts = s.split(java.util.regex.Pattern.quote(String.valueOf(delimiter)), -1);
        if (parts.length != 5 || !parts[0].isEmpty() || !parts[4].isEmpty()) {
            throw new FtpException(501, "Malformed argument.");
        }
        if (!parts[1].equals("1") && !parts[1].equals("2")) {
            throw new FtpException(522, "Network protocol not supported, use (1,2).");
        }
        String host = parts[2];
        boolean literal = parts[1].equals("1") ? host.matches("\\d{1,3}(\\.\\d{1,3}){3}") : host.matches("[0-9A-Fa-f:.]+");
        if (!literal || !host.contains(parts[1].equals("1") ? "." : ":")) {
            throw new FtpException(501, "Malformed argument.");
        }
        try {
            int port = Integer.parseInt(parts[3]);
            if (port < 1 || port > 65535) {
                throw new FtpException(501, "Malformed argument.");
            }
            return new InetSocketAddress(InetAddress.getByName(host), port); // literal: no DNS lookup
        } catch (NumberFormatException | UnknownHostException e) {
            throw new FtpException(501, "Malformed argument.");
        }
    }

    /** Lowest port a data connection may go to; below are the well-known services (RFC 2577 section 3). */
    static final int FIRST_UNPRIVILEGED_PORT = 1024;

    /**
     * Refuses a PORT/EPRT/SPOR target on a privileged port: the FTP bounce attack (RFC 2577
     * section 3) makes a server connect to another host's service port (SMTP, SSH, ...) and send it
     * bytes of the client's choosing. RFC 2577 suggests refusing ports below 1024 with 504. The host
     * is not checked: a third-party transfer points this server at another server (GFD.020;
     * RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode"), whose data ports are ephemeral.
     *
     * @param target a parsed data connection target
     * @return {@code target}
     * @throws FtpException {@code 504 Command not implemented for that parameter.} for a port below 1024
     */
    static InetSocketAddress unprivileged(InetSocketAddress target) throws FtpException {
        if (target.getPort() < FIRST_UNPRIVILEGED_PORT) {
            throw new FtpException(504, "Command not implemented for that parameter: data connections to ports below "
                    + FIRST_UNPRIVILEGED_PORT + " are refused.");
        }
        return target;
    }

    /**
     * @param address an IPv4 address and port
     * @return {@code h1,h2,h3,h4,p1,p2}
     */
    static String formatPasv(InetSocketAddress address) {
        byte[] b = address.getAddress().getAddress();
        int port = address.getPort();
        return (b[0] & 0xff) + "," + (b[1] & 0xff) + "," + (b[2] & 0xff) + "," + (b[3] & 0xff) + ","
                + (port >> 8) + "," + (port & 0xff);
    }
}
