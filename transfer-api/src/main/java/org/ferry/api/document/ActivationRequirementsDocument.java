package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What activating an endpoint takes ({@code GET /endpoint/{id}/activation_requirements}), and,
 * with the values filled in, the body of {@code POST /endpoint/{id}/activate}.
 *
 * @param dataType {@code activation_requirements}
 * @param activated whether the caller can use the endpoint now
 * @param expiresIn seconds the caller's activation lasts; -1 never expires; 0 not activated
 * @param expireTime when it ends, or null
 * @param autoActivationSupported true for endpoints that need activation
 * @param oauthServer always null (no OAuth activation)
 * @param subject the identity (oneline DN) of the caller's credential, or null
 * @param length the number of requirements
 * @param requirements the requirements ({@code DATA})
 */
public record ActivationRequirementsDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        Boolean activated,
        @JsonProperty("expires_in") Long expiresIn,
        @JsonProperty("expire_time") String expireTime,
        @JsonProperty("auto_activation_supported") Boolean autoActivationSupported,
        @JsonProperty("oauth_server") String oauthServer,
        String subject,
        Integer length,
        @JsonProperty("DATA") List<ActivationRequirementDocument> requirements) {}
