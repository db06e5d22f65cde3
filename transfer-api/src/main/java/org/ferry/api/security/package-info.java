/**
 * API authentication and authorization on Spring Security: bearer access tokens, HTTP Basic
 * with an account's password, X.509 client certificates (proxy certificates included) mapped
 * through a grid-mapfile, and bearer JWTs of an OpenID Connect provider; JSON 401/403 answers;
 * the {@link org.ferry.api.identity.Caller} argument of the controllers.
 */
package org.ferry.api.security;
