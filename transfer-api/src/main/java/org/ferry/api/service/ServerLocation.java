package org.ferry.api.service;

import org.ferry.api.command.ServerDefinition;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.mover.client.GridFtpUrl;

/**
 * Where a GridFTP server is, checked: scheme, host name, port and subject.
 *
 * @param scheme {@code ftp} or {@code gsiftp}
 * @param hostname host name or address
 * @param port control port
 * @param subject the DN it must present, or null
 */
record ServerLocation(String scheme, String hostname, int port, String subject) {

    /** @return {@code scheme://hostname:port} */
    String uri() {
        return scheme + "://" + hostname + ":" + port;
    }

    /**
     * @param given the location as given
     * @param current the server it changes, or null for a new one
     * @param prefix the prefix of the fields in errors ({@code ""}, or {@code DATA[1].})
     * @return the location
     * @throws InvalidRequestException naming the field
     */
    static ServerLocation of(ServerDefinition given, EndpointServer current, String prefix) {
        String subject = given.subject() != null
                ? (given.subject().isBlank() ? null : given.subject().strip())
                : current == null ? null : current.getSubject();
        if (given.uri() != null && !given.uri().isBlank()) {
            GridFtpUrl url;
            try {
                url = GridFtpUrl.parse(given.uri());
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(prefix + "uri", e.getMessage());
            }
            if (!url.username().equals("anonymous") || !url.path().equals("/")) {
                throw new InvalidRequestException(
                        prefix + "uri", prefix + "uri must be scheme://hostname[:port], nothing else");
            }
            return new ServerLocation(url.scheme(), url.host(), url.port(), subject);
        }
        String scheme = given.scheme() != null ? given.scheme() : current == null ? "gsiftp" : current.getScheme();
        if (!scheme.equals("ftp") && !scheme.equals("gsiftp")) {
            throw new InvalidRequestException(prefix + "scheme", prefix + "scheme must be ftp or gsiftp");
        }
        String hostname = given.hostname() != null ? given.hostname() : current == null ? null : current.getHostname();
        if (hostname == null || hostname.isBlank() || !hostname.matches("[A-Za-z0-9.:\\-\\[\\]]+")) {
            throw new InvalidRequestException(
                    prefix + "hostname", prefix + "hostname is required: a host name or address");
        }
        int port = given.port() != null ? given.port() : current == null ? GridFtpUrl.DEFAULT_PORT : current.getPort();
        if (port < 1 || port > 65535) {
            throw new InvalidRequestException(prefix + "port", prefix + "port must be 1-65535");
        }
        return new ServerLocation(scheme, hostname, port, subject);
    }
}
