package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code PUT /task/{id}}: only {@code label} and {@code deadline} can change, and
 * only while the task is ACTIVE or INACTIVE (service-semantics b.4).
 *
 * @param dataType {@code task} or absent
 * @param label new label, or null to keep it
 * @param deadline new ISO-8601 deadline, or null to keep it
 */
public record TaskUpdateRequest(@JsonProperty("DATA_TYPE") String dataType, String label, String deadline) {}
