/**
 * The CLI's client of Ferry's REST API ({@code /v0.10/...}, the Globus Transfer API's paths and
 * documents): HTTP calls with a bearer token (which {@link org.ferry.cli.TokenSource} finds),
 * JSON in and out, and the API's error documents as {@link org.ferry.cli.api.ApiException}.
 */
package org.ferry.cli.api;
