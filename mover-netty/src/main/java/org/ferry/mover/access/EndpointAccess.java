package org.ferry.mover.access;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.ferry.mover.client.GridFtpUrl;

/**
 * How to log in to one endpoint's GridFTP server: plain values, the secret sealed, so that it can
 * travel in a chunk message to a mover that has the credential key but no database.
 *
 * <p>For {@code ftp://} the secret is the password (none for anonymous logins); for {@code gsiftp://}
 * it is the activated proxy credential as PEM (key and chain), and {@code trustRoots} are the extra
 * CA files the user bootstrapped from a MyProxy server (added to the mover's trust directory).
 *
 * @param endpoint the endpoint's canonical name ({@code owner#name}), for messages
 * @param url {@code ftp://host:port} or {@code gsiftp://host:port}, without credentials
 * @param username the login user; for {@code gsiftp://} null lets the server's grid-mapfile choose
 * @param sealedSecret the sealed password or credential, or null for none
 * @param secretContext the context it was sealed with (what record it belongs to)
 * @param serverSubject the DN the server must present, or null for the GSI host rule
 *     ({@code host/<host name>})
 * @param trustRoots extra trust directory files, name to base64 content; empty for none
 */
public record EndpointAccess(
        String endpoint,
        String url,
        String username,
        String sealedSecret,
        String secretContext,
        String serverSubject,
        Map<String, String> trustRoots) {

    /**
     * @throws NullPointerException if {@code endpoint} or {@code url} is null
     * @throws IllegalArgumentException if {@code url} is not an ftp:// or gsiftp:// URL, or a sealed
     *     secret comes without its context
     */
    public EndpointAccess {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(url, "url");
        GridFtpUrl.parse(url);
        if (sealedSecret != null && secretContext == null) {
            throw new IllegalArgumentException("a sealed secret needs its context");
        }
        trustRoots = trustRoots == null ? Map.of() : Map.copyOf(new TreeMap<>(trustRoots));
    }

    /** @return true for a {@code gsiftp://} endpoint */
    public boolean isGsi() {
        return GridFtpUrl.parse(url).scheme().equals("gsiftp");
    }

    /** Never shows the sealed secret. */
    @Override
    public String toString() {
        return endpoint + " (" + url + (username == null ? "" : ", user " + username) + ")";
    }
}
