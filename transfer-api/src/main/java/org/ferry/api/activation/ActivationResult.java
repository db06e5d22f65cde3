package org.ferry.api.activation;

import org.ferry.api.credential.ActivationStatus;

/**
 * What an activation, automatic activation or deactivation did.
 *
 * @param code e.g. {@code Activated.MyProxyCredential}, {@code AlreadyActivated},
 *     {@code AutoActivated.CachedCredential}, {@code AutoActivationFailed}, {@code Deactivated}
 * @param message one line for the user
 * @param status the endpoint's activation afterwards
 * @param requirements for {@code AutoActivationFailed}: what a manual activation needs; else empty
 */
public record ActivationResult(
        String code, String message, ActivationStatus status, java.util.List<ActivationRequirement> requirements) {}
