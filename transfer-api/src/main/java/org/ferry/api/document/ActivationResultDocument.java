package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer of {@code POST /endpoint/{id}/activate}, {@code .../autoactivate} and
 * {@code .../deactivate} (the historical GCSv4 activation of the Globus Transfer API v0.10).
 *
 * @param dataType {@code activation_result}
 * @param code e.g. {@code Activated.MyProxyCredential}, {@code Activated.DelegatedProxy},
 *     {@code AlreadyActivated}, {@code AutoActivated.CachedCredential},
 *     {@code AutoActivationFailed}, {@code Deactivated}
 * @param message the outcome for people
 * @param endpoint the endpoint's canonical name
 * @param endpointId the endpoint's id
 * @param activated whether the caller can use the endpoint now
 * @param expiresIn seconds the activation lasts; -1: never expires (no activation needed); 0:
 *     not activated
 * @param expireTime when it ends, or null
 * @param subject the identity (oneline DN) of the caller's credential, or null
 * @param requirements for {@code AutoActivationFailed}: what a manual activation needs; else empty
 * @param length the number of requirements
 * @param resource the request path
 * @param requestId the request's id
 */
public record ActivationResultDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        String endpoint,
        @JsonProperty("endpoint_id") String endpointId,
        boolean activated,
        @JsonProperty("expires_in") long expiresIn,
        @JsonProperty("expire_time") String expireTime,
        String subject,
        @JsonProperty("DATA") List<ActivationRequirementDocument> requirements,
        int length,
        String resource,
        @JsonProperty("request_id") String requestId) {}
