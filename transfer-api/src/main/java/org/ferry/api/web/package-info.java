/**
 * REST controllers of /v0.10 (docs/rest-api.md): they read request documents, call the
 * services, and write response documents; the error document comes from {@link
 * org.ferry.api.web.ApiErrorHandler} alone.
 */
package org.ferry.api.web;
