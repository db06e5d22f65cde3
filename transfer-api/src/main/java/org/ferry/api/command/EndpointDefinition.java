package org.ferry.api.command;

import java.util.List;

/**
 * An endpoint to register, or the fields of one to change (each null to keep).
 *
 * @param canonicalName {@code owner#name}, or null
 * @param displayName the name part, or null
 * @param description free text, or null
 * @param url {@code ftp://host[:port]} or {@code gsiftp://host[:port]}, or null (on a create with
 *     servers: the first server's)
 * @param username the login user, or null
 * @param password the login password (stored sealed), or null
 * @param isPublic whether every user may see and use it, or null
 * @param defaultDirectory where a listing starts, or null
 * @param myProxyServer the MyProxy server users activate a {@code gsiftp://} endpoint against, or
 *     null
 * @param myProxyDn that server's DN when it is not {@code host/<host name>}, or null
 * @param sshPrivateKey for {@code sshftp://}: the SSH private key (stored sealed), or null
 * @param sshHostKey for {@code sshftp://}: the host key to pin, or null to pin the one the server shows
 * @param servers the endpoint's servers in the order they are tried (a create only; a change goes
 *     through the server calls), or null
 */
public record EndpointDefinition(
        String canonicalName,
        String displayName,
        String description,
        String url,
        String username,
        String password,
        Boolean isPublic,
        String defaultDirectory,
        String myProxyServer,
        String myProxyDn,
        String sshPrivateKey,
        String sshHostKey,
        List<ServerDefinition> servers) {}
