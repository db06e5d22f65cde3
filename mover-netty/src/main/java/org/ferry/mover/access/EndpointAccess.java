package org.ferry.mover.access;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.ferry.mover.client.GridFtpUrl;

/**
 * How to log in to one endpoint: its GridFTP servers and the login, as plain values with the
 * secret sealed, so that it can travel in a chunk message to a mover that has the credential key
 * but no database.
 *
 * <p>An endpoint has one or more servers (a logical endpoint over several GridFTP servers, as in
 * Globus Online), all {@code ftp://} or all {@code gsiftp://}: a session goes to one of them and
 * fails over to the next on a transient fault ({@link EndpointSessions}). For {@code ftp://} the
 * secret is the password (none for anonymous logins); for {@code gsiftp://} it is the activated
 * proxy credential as PEM (key and chain), and {@code trustRoots} are the extra CA files the user
 * bootstrapped from a MyProxy server (added to the mover's trust directory). For {@code sshftp://}
 * (the control channel through the host's sshd, issue 37) the secret is the SSH private key
 * (OpenSSH or PEM text, unencrypted once unsealed), {@code username} the SSH login, and each
 * server's {@code subject} its host key pinned when the endpoint was created.
 *
 * @param endpoint the endpoint's canonical name ({@code owner#name}), for messages
 * @param servers its servers, at least one, in the order to try them
 * @param username the login user; for {@code gsiftp://} null lets the server's grid-mapfile choose
 * @param sealedSecret the sealed password or credential, or null for none
 * @param secretContext the context it was sealed with (what record it belongs to)
 * @param trustRoots extra trust directory files, name to base64 content; empty for none
 */
public record EndpointAccess(
        String endpoint,
        List<Server> servers,
        String username,
        String sealedSecret,
        String secretContext,
        Map<String, String> trustRoots) {

    /**
     * One GridFTP server of an endpoint.
     *
     * @param url {@code ftp://host:port}, {@code gsiftp://host:port} or {@code sshftp://host:port},
     *     without credentials
     * @param subject for {@code gsiftp://} the DN the server must present, or null for the GSI host
     *     rule ({@code host/<host name>}); for {@code sshftp://} the pinned host key as an OpenSSH
     *     public key line ({@code ssh-ed25519 AAAA...}), required
     */
    public record Server(String url, String subject) {
        /**
         * @throws IllegalArgumentException if {@code url} is not an ftp://, gsiftp:// or sshftp://
         *     URL, or an sshftp:// one has no pinned host key
         */
        public Server {
            Objects.requireNonNull(url, "url");
            GridFtpUrl parsed = GridFtpUrl.parse(url);
            if (parsed.scheme().equals("sshftp") && (subject == null || subject.isBlank())) {
                throw new IllegalArgumentException("sshftp server " + url + " has no pinned host key");
            }
        }

        /** @return true for {@code gsiftp://} */
        public boolean isGsi() {
            return scheme().equals("gsiftp");
        }

        /** @return true for {@code sshftp://} */
        public boolean isSsh() {
            return scheme().equals("sshftp");
        }

        /** @return {@code ftp}, {@code gsiftp} or {@code sshftp} */
        public String scheme() {
            return GridFtpUrl.parse(url).scheme();
        }
    }

    /**
     * @throws NullPointerException if {@code endpoint} or {@code servers} is null
     * @throws IllegalArgumentException if there is no server, the servers mix schemes, or a
     *     sealed secret comes without its context
     */
    public EndpointAccess {
        Objects.requireNonNull(endpoint, "endpoint");
        servers = List.copyOf(servers);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("endpoint " + endpoint + " has no server");
        }
        String scheme = servers.get(0).scheme();
        if (servers.stream().anyMatch(s -> !s.scheme().equals(scheme))) {
            throw new IllegalArgumentException(
                    "endpoint " + endpoint + " mixes ftp://, gsiftp:// or sshftp:// servers");
        }
        if (sealedSecret != null && secretContext == null) {
            throw new IllegalArgumentException("a sealed secret needs its context");
        }
        trustRoots = trustRoots == null ? Map.of() : Map.copyOf(new TreeMap<>(trustRoots));
    }

    /**
     * An endpoint with one server.
     *
     * @param endpoint the endpoint's canonical name
     * @param url its server's URL
     * @param username the login user, or null
     * @param sealedSecret the sealed password or credential, or null
     * @param secretContext its sealing context
     * @param serverSubject the server's DN, or null for the host rule
     * @param trustRoots extra trust files
     */
    public EndpointAccess(
            String endpoint,
            String url,
            String username,
            String sealedSecret,
            String secretContext,
            String serverSubject,
            Map<String, String> trustRoots) {
        this(endpoint, List.of(new Server(url, serverSubject)), username, sealedSecret, secretContext, trustRoots);
    }

    /** @return true for a {@code gsiftp://} endpoint */
    public boolean isGsi() {
        return servers.get(0).isGsi();
    }

    /** @return true for an {@code sshftp://} endpoint */
    public boolean isSsh() {
        return servers.get(0).isSsh();
    }

    /** Never shows the sealed secret. */
    @Override
    public String toString() {
        return endpoint + " ("
                + String.join(", ", servers.stream().map(Server::url).toList())
                + (username == null ? "" : ", user " + username) + ")";
    }
}
