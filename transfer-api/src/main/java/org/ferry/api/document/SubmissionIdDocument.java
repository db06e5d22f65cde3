package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code GET /submission_id}: a fresh id to make a submission idempotent.
 *
 * @param dataType {@code submission_id}
 * @param value a UUID
 */
public record SubmissionIdDocument(
        @JsonProperty("DATA_TYPE") String dataType, String value) {}
