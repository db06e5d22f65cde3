/**
 * Endpoint activation (the Globus Transfer API v0.10 activation documents): what a
 * {@code gsiftp://} endpoint needs ({@code activation_requirements}), activation with MyProxy or a
 * proxy the user's client delegates, automatic activation from a credential cached for another
 * endpoint, and deactivation.
 */
package org.ferry.api.activation;
