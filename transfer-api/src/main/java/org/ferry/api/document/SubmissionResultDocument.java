package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of {@code POST /transfer} and {@code POST /delete}.
 *
 * @param dataType {@code transfer_result} (also for delete submissions, as Globus)
 * @param code {@code Accepted}, or {@code Duplicate} for a submission id used before
 * @param message the outcome for people
 * @param taskId the task's id
 * @param submissionId the submission id
 * @param taskLink a link to the task
 * @param resource the request path
 * @param requestId the request's id
 */
public record SubmissionResultDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        @JsonProperty("task_id") String taskId,
        @JsonProperty("submission_id") String submissionId,
        @JsonProperty("task_link") LinkDocument taskLink,
        String resource,
        @JsonProperty("request_id") String requestId) {}
