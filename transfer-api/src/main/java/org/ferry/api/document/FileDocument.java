package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One entry of a listing, or the answer of {@code stat}.
 *
 * @param dataType {@code file}
 * @param name the entry's name (for {@code stat}: the last path component)
 * @param type {@code file}, {@code dir}, {@code link} or {@code other}
 * @param size bytes
 * @param lastModified ISO-8601 UTC, or null when the server gave none
 * @param permissions octal mode such as {@code 0644}, or null
 * @param user owner name, or null when the server gave none
 * @param group group name, or null
 */
public record FileDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String name,
        String type,
        long size,
        @JsonProperty("last_modified") String lastModified,
        String permissions,
        String user,
        String group) {}
