package org.ferry.api.activation;

/**
 * One entry of an {@code activation_requirements} document ({@code DATA_TYPE
 * activation_requirement}).
 *
 * @param type {@code myproxy} or {@code delegate_proxy}
 * @param name the field, e.g. {@code hostname}, {@code passphrase}, {@code public_key}
 * @param value its value: a default offered by the service or what the user filled in; null when
 *     empty
 * @param required whether activation of this type needs it
 * @param isPrivate whether it is a secret (the passphrase): never shown back
 * @param uiName a label for forms
 * @param description what it is
 */
public record ActivationRequirement(
        String type,
        String name,
        String value,
        boolean required,
        boolean isPrivate,
        String uiName,
        String description) {}
