package org.ferry.mover.client;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code h1,h2,h3,h4,p1,p2} address form of PORT and the 227 PASV reply (RFC 959 section 4.1.2,
 * port = p1 * 256 + p2), and EPRT's {@code |2|addr|port|} for IPv6 (RFC 2428).
 */
final class HostPort {

    private static final Pattern SIX_NUMBERS =
            Pattern.compile("(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3}),(\\d{1,3})");

    private HostPort() {
    }

    /**
     * Parses the address of a 227 reply, e.g. {@code 227 Entering Passive Mode (127,0,0,1,130,177)}.
     *
     * @throws IOException if the text holds no valid address
     */
    static InetSocketAddress parsePasv(String replyText) throws IOException {
        Matcher m = SIX_NUMBERS.matcher(replyText);
        if (!m.find()) {
            throw new IOException("no h1,h2,h3,h4,p1,p2 address in PASV reply: " + replyText);
        }
        int[] n = new int[6];
        for (int i = 0; i < 6; i++) {
            n[i] = Integer.parseInt(m.group(i + 1));
            if (n[i] > 255) {
                throw new IOException("bad number " + n[i] + " in PASV reply: " + replyText);
            }
        }
        String host = n[0] + "." + n[1] + "." + n[2] + "." + n[3];
        return new InetSocketAddress(host, n[4] * 256 + n[5]);
    }

    /** @return the argument of a PORT command for an IPv4 address, e.g. {@code 127,0,0,1,130,177} */
    static String portArgument(InetSocketAddress address) {
        byte[] ip = address.getAddress().getAddress();
        return (ip[0] & 0xff) + "," + (ip[1] & 0xff) + "," + (ip[2] & 0xff) + "," + (ip[3] & 0xff) + ","
                + (address.getPort() >> 8) + "," + (address.getPort() & 0xff);
    }

    /** @return {@code PORT h1,...} for IPv4, {@code EPRT |2|addr|port|} for IPv6 */
    static String portCommand(InetSocketAddress address) {
        if (address.getAddress() instanceof Inet4Address) {
            return "PORT " + portArgument(address);
        }
        return "EPRT |2|" + address.getAddress().getHostAddress() + "|" + address.getPort() + "|";
    }
}
