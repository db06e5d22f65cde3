package org.ferry.api.command;

/**
 * Where an endpoint's GridFTP server is: as {@code uri}, or as {@code scheme}, {@code hostname} and
 * {@code port} (each null to keep, on a change, or for the default: {@code gsiftp}, port 2811);
 * the certificate subject it must present.
 *
 * @param uri {@code scheme://hostname:port}, instead of the three after it, or null
 * @param scheme {@code ftp} or {@code gsiftp}, or null
 * @param hostname host name or address, or null
 * @param port control port, or null
 * @param subject the DN the server must present when it is not {@code host/<hostname>}; blank for
 *     none; null to keep
 */
public record ServerDefinition(String uri, String scheme, String hostname, Integer port, String subject) {}
