package org.ferry.mover.app;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The two ends of the SSH connection a process runs under, from the {@code SSH_CONNECTION}
 * variable sshd sets for the commands it runs ({@code client_ip client_port server_ip server_port},
 * OpenSSH sshd(8) "ENVIRONMENT"): the server end is the address the client reached this host on,
 * so the one to announce for passive data connections (globus-gridftp-server -ssh reads it for the
 * same purpose).
 *
 * @param client the SSH client's address and port
 * @param server this host's address and port the client connected to
 */
public record SshConnection(InetSocketAddress client, InetSocketAddress server) {

    /**
     * @param value the variable's value, or null
     * @return the ends, or empty when the value is missing or not four fields of numeric addresses
     *     and ports
     */
    public static Optional<SshConnection> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String[] fields = value.strip().split("\\s+");
        if (fields.length != 4) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SshConnection(address(fields[0], fields[1]), address(fields[2], fields[3])));
        } catch (IllegalArgumentException | UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static InetSocketAddress address(String host, String port) throws UnknownHostException {
        // numeric only: never a name lookup
        if (!host.matches("[0-9.]+|[0-9A-Fa-f:.%a-zA-Z0-9]*:[0-9A-Fa-f:.%a-zA-Z0-9]*")) {
            throw new UnknownHostException(host);
        }
        return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(port));
    }
}
