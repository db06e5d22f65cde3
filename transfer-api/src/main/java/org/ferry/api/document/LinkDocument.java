package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A link to a resource ({@code task_link} of a transfer result).
 *
 * @param dataType {@code link}
 * @param href path relative to {@code /v0.10}, e.g. {@code task/<id>?format=json}
 * @param rel {@code related}
 * @param resource {@code task}
 * @param title {@code related task}
 */
public record LinkDocument(
        @JsonProperty("DATA_TYPE") String dataType, String href, String rel, String resource, String title) {}
