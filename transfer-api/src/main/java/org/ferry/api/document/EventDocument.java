package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One task event (service-semantics b.5).
 *
 * @param dataType {@code event}
 * @param code e.g. {@code STARTED}, {@code PROGRESS}, {@code FILE_NOT_FOUND}
 * @param isError whether it is a fault
 * @param description one line for people
 * @param details free text or JSON, or null
 * @param time ISO-8601 UTC
 */
public record EventDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        @JsonProperty("is_error") boolean isError,
        String description,
        String details,
        String time) {}
