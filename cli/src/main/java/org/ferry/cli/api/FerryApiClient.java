package org.ferry.cli.api;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A small client of the Ferry REST API (v0.10, see docs/rest-api.md): sends JSON requests with
 * the bearer token and returns the parsed JSON answer.
 *
 * <p>Errors: an HTTP 4xx/5xx answer throws {@link ApiException}; a failure to connect throws
 * {@link ApiUnreachableException}.
 */
public final class FerryApiClient {
    private static final String VERSION_PREFIX = "/v0.10";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    // Listings go to a remote GridFTP server through the API and may take a while.
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);

    private final String baseUrl;
    private final String authorization;
    private final ObjectMapper mapper;
    private final HttpClient http;

    /**
     * Creates the client.
     *
     * @param baseUrl the API's base URL, e.g. {@code http://127.0.0.1:8080} (a trailing slash is
     *     ignored)
     * @param token the bearer token, or null to send none (the API then answers 401)
     * @param mapper the JSON mapper
     */
    public FerryApiClient(String baseUrl, String token, ObjectMapper mapper) {
        this(baseUrl, token == null ? null : "Bearer " + token, mapper, true);
    }

    private FerryApiClient(String baseUrl, String authorization, ObjectMapper mapper, boolean unused) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.authorization = authorization;
        this.mapper = mapper;
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    /**
     * A client that authenticates with a user name and password (HTTP Basic) instead of a token:
     * what {@code ferry login} uses to make its token.
     *
     * @param username the account's user name
     * @param password its password
     * @return the client
     */
    public FerryApiClient withPassword(String username, String password) {
        String basic = java.util.Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new FerryApiClient(baseUrl, "Basic " + basic, mapper, true);
    }

    /**
     * {@code PUT /v0.10<path>} with a JSON body.
     *
     * @param path the path after the version prefix, already encoded
     * @param body the JSON body
     * @return the JSON answer
     */
    public JsonNode put(String path, JsonNode body) {
        return send("PUT", path, body);
    }

    /**
     * {@code PATCH /v0.10<path>} with a JSON body.
     *
     * @param path the path after the version prefix, already encoded
     * @param body the JSON body
     * @return the JSON answer
     */
    public JsonNode patch(String path, JsonNode body) {
        return send("PATCH", path, body);
    }

    /**
     * Encodes one path segment, e.g. an endpoint name {@code admin#a} as {@code admin%23a}.
     *
     * @param segment the raw segment
     * @return the percent-encoded segment (spaces as {@code %20}, not {@code +})
     */
    public static String segment(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * {@code GET /v0.10<path>?<query>}.
     *
     * @param path the path after the version prefix, already encoded, e.g. {@code /task_list}
     * @param query query parameters (raw values; null values are left out); may be empty
     * @return the JSON answer
     */
    public JsonNode get(String path, Map<String, ?> query) {
        return send("GET", path + queryString(query), null);
    }

    /**
     * {@code POST /v0.10<path>} with a JSON body.
     *
     * @param path the path after the version prefix, already encoded
     * @param body the JSON body, or null for an empty body
     * @return the JSON answer
     */
    public JsonNode post(String path, JsonNode body) {
        return send("POST", path, body);
    }

    /**
     * {@code DELETE /v0.10<path>}.
     *
     * @param path the path after the version prefix, already encoded
     * @return the JSON answer
     */
    public JsonNode delete(String path) {
        return send("DELETE", path, null);
    }

    /** @return the base URL requests go to */
    public String baseUrl() {
        return baseUrl;
    }

    private JsonNode send(String method, String pathAndQuery, JsonNode body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + VERSION_PREFIX + pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ApiUnreachableException(baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiUnreachableException(baseUrl, e);
        }
        if (response.statusCode() >= 400) {
            throw toException(response);
        }
        String text = response.body();
        if (text == null || text.isBlank()) {
            return mapper.createObjectNode();
        }
        try {
            return mapper.readTree(text);
        } catch (JacksonException e) {
            throw new ApiException(
                    response.statusCode(),
                    "HTTP " + response.statusCode(),
                    "the answer is not JSON: " + abbreviate(text),
                    null);
        }
    }

    private ApiException toException(HttpResponse<String> response) {
        int status = response.statusCode();
        String text = response.body() == null ? "" : response.body();
        try {
            JsonNode error = mapper.readTree(text);
            if (error != null && error.hasNonNull("code") && error.hasNonNull("message")) {
                String field = error.hasNonNull("field") ? error.get("field").asString() : null;
                return new ApiException(
                        status,
                        error.get("code").asString(),
                        error.get("message").asString(),
                        field);
            }
        } catch (JacksonException e) {
            // Not an error document (e.g. a proxy's HTML page): report the raw body below.
        }
        String message = text.isBlank() ? "(no body)" : abbreviate(text);
        return new ApiException(status, "HTTP " + status, message, null);
    }

    private static String abbreviate(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    private static String queryString(Map<String, ?> query) {
        Map<String, Object> present = new LinkedHashMap<>();
        query.forEach((key, value) -> {
            if (value != null) {
                present.put(key, value);
            }
        });
        if (present.isEmpty()) {
            return "";
        }
        return present.entrySet().stream()
                .map(e -> segment(e.getKey()) + "=" + segment(String.valueOf(e.getValue())))
                .collect(Collectors.joining("&", "?", ""));
    }
}
