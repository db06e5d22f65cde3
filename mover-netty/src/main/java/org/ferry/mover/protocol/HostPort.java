package org.ferry.mover.protocol;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The data connection address forms both sides of GridFTP write and read: {@code h1,h2,h3,h4,p1,p2}
 * of PORT, SPOR and the 227/229 PASV/SPAS replies (RFC 959 section 4.1.2: port = p1 * 256 + p2), and
 * {@code <d>proto<d>address<d>port<d>} of EPRT (RFC 2428 section 2). Stateless. Failures are
 * {@link IllegalArgumentException}s; the server turns them into its reply codes and the client
 * into {@link java.io.IOException}s.
 */
public final class HostPort {

    private static final Pattern SIX_NUMBERS =
            Pattern.compile("(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3})");

    private HostPort() {}

    /** EPRT named a network protocol other than 1 (IPv4) or 2 (IPv6): RFC 2428's 522 reply. */
    public static final class UnsupportedProtocolException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnsupportedProtocolException(String protocol) {
            super("network protocol " + protocol + " not supported");
        }
    }

    /**
     * @param address an IPv4 address and port
     * @return {@code h1,h2,h3,h4,p1,p2}
     * @throws IllegalArgumentException for an IPv6 address
     */
    public static String format(InetSocketAddress address) {
        if (!(address.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("h1,h2,h3,h4,p1,p2 holds IPv4 addresses only: " + address);
        }
        byte[] b = address.getAddress().getAddress();
        int port = address.getPort();
        return (b[0] & 0xff) + "," + (b[1] & 0xff) + "," + (b[2] & 0xff) + "," + (b[3] & 0xff) + "," + (port >> 8) + ","
                + (port & 0xff);
    }

    /**
     * @param text exactly {@code h1,h2,h3,h4,p1,p2} (blanks around numbers allowed), each 0..255
     * @return the address
     * @throws IllegalArgumentException when malformed or the port is 0
     */
    public static InetSocketAddress parse(String text) {
        String[] parts = text.strip().split(",", -1);
        if (parts.length != 6) {
            throw new IllegalArgumentException("not h1,h2,h3,h4,p1,p2: " + text);
        }
        int[] values = new int[6];
        for (int i = 0; i < 6; i++) {
            String part = parts[i].strip();
            if (!part.matches("\\d{1,3}")) {
                throw new IllegalArgumentException("not h1,h2,h3,h4,p1,p2: " + text);
            }
            values[i] = Integer.parseInt(part);
        }
        return address(values, text);
    }

    /**
     * Finds the address in a reply's text, e.g. {@code 227 Entering Passive Mode (127,0,0,1,130,177)}.
     *
     * @param replyText the reply line
     * @return the address
     * @throws IllegalArgumentException if the text holds no valid address
     */
    public static InetSocketAddress find(String replyText) {
        Matcher m = SIX_NUMBERS.matcher(replyText);
        if (!m.find()) {
            throw new IllegalArgumentException("no h1,h2,h3,h4,p1,p2 address in: " + replyText);
        }
        int[] values = new int[6];
        for (int i = 0; i < 6; i++) {
            values[i] = Integer.parseInt(m.group(i + 1));
        }
        return address(values, replyText);
    }

    private static InetSocketAddress address(int[] values, String text) {
        byte[] address = new byte[4];
        for (int i = 0; i < 6; i++) {
            if (values[i] > 255) {
                throw new IllegalArgumentException("number " + values[i] + " over 255 in: " + text);
            }
            if (i < 4) {
                address[i] = (byte) values[i];
            }
        }
        int port = values[4] * 256 + values[5];
        if (port == 0) {
            throw new IllegalArgumentException("port 0 in: " + text);
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(address), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address in: " + text, e);
        }
    }

    /**
     * @param text {@code <d>proto<d>address<d>port<d>} with any delimiter {@code d} (RFC 2428 section 2)
     * @return the address (a literal: no name lookup)
     * @throws UnsupportedProtocolException for a protocol other than 1 or 2
     * @throws IllegalArgumentException when malformed
     */
    public static InetSocketAddress parseEprt(String text) {
        String s = text.strip();
        if (s.length() < 7) {
            throw new IllegalArgumentException("malformed EPRT argument: " + text);
        }
        char delimiter = s.charAt(0);
        String[] parts = s.split(Pattern.quote(String.valueOf(delimiter)), -1);
        if (parts.length != 5 || !parts[0].isEmpty() || !parts[4].isEmpty()) {
            throw new IllegalArgumentException("malformed EPRT argument: " + text);
        }
        if (!parts[1].equals("1") && !parts[1].equals("2")) {
            throw new UnsupportedProtocolException(parts[1]);
        }
        String host = parts[2];
        boolean literal =
                parts[1].equals("1") ? host.matches("\\d{1,3}(\\.\\d{1,3}){3}") : host.matches("[0-9A-Fa-f:.]+");
        if (!literal || !host.contains(parts[1].equals("1") ? "." : ":")) {
            throw new IllegalArgumentException("malformed EPRT address: " + text);
        }
        try {
            int port = Integer.parseInt(parts[3]);
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("EPRT port out of range: " + text);
            }
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (NumberFormatException | UnknownHostException e) {
            throw new IllegalArgumentException("malformed EPRT argument: " + text, e);
        }
    }

    /**
     * @param address where the peer should connect
     * @return {@code PORT h1,...} for IPv4, {@code EPRT |2|addr|port|} for IPv6 (RFC 2428 section 2)
     */
    public static String portCommand(InetSocketAddress address) {
        if (address.getAddress() instanceof Inet4Address) {
            return "PORT " + format(address);
        }
        return "EPRT |2|" + address.getAddress().getHostAddress() + "|" + address.getPort() + "|";
    }
}
