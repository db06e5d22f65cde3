/**
 * Security of the web pages and the actuator (the API's own chain is transfer-api's): form and
 * OpenID Connect sign-in with a session cookie and CSRF tokens for the pages, and the refusal of
 * credentials sent in clear from beyond loopback.
 */
package org.ferry.server.security;
