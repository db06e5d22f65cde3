package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A server document sent to {@code POST /endpoint/{id}/server} or
 * {@code PUT /endpoint/{id}/server/{server_id}} (the historical Globus server document): where the
 * server is as {@code uri}, or as {@code scheme}, {@code hostname} and {@code port}; its expected
 * certificate {@code subject}. Read-only fields sent back unchanged are ignored.
 *
 * @param dataType {@code server} or absent
 * @param id read-only
 * @param hostname host name or address
 * @param port control port (default 2811)
 * @param scheme {@code ftp} or {@code gsiftp} (default {@code gsiftp})
 * @param uri {@code scheme://hostname:port}, instead of the three above
 * @param subject the DN the server must present, when it is not {@code host/<hostname>}
 */
public record ServerRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        Long id,
        String hostname,
        Integer port,
        String scheme,
        String uri,
        String subject) {}
