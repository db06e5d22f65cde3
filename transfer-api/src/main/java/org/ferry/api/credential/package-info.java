/**
 * Credentials of the service: the key that seals secrets at rest ({@code ferry.credentials.*}),
 * the site's GSI trust ({@code ferry.gsi.ca-dir}), and how sessions to endpoints are opened from
 * what is stored ({@link org.ferry.api.credential.EndpointAccessService}).
 */
package org.ferry.api.credential;
