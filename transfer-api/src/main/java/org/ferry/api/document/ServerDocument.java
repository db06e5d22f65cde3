package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One GridFTP server of an endpoint (the historical Globus server document).
 *
 * @param dataType {@code server}
 * @param id the server's id (unique over all endpoints)
 * @param hostname host name or address
 * @param port control port
 * @param scheme {@code ftp} or {@code gsiftp}
 * @param uri {@code scheme://hostname:port}
 * @param subject the server's expected certificate subject, or null
 */
public record ServerDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        long id,
        String hostname,
        int port,
        String scheme,
        String uri,
        String subject) {}
