package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One entry of an {@code activation_requirements} document.
 *
 * @param dataType {@code activation_requirement}
 * @param type {@code myproxy} or {@code delegate_proxy}
 * @param name the field, e.g. {@code hostname}, {@code passphrase}, {@code public_key},
 *     {@code proxy_chain}
 * @param value the value offered (a default) or filled in; null when empty; never shown for a
 *     private one
 * @param required whether activation of this type needs it
 * @param isPrivate whether it is a secret (the passphrase)
 * @param uiName a label for forms
 * @param description what it is
 */
public record ActivationRequirementDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String type,
        String name,
        String value,
        Boolean required,
        @JsonProperty("private") Boolean isPrivate,
        @JsonProperty("ui_name") String uiName,
        String description) {}
