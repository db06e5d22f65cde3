package org.ferry.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** A tiny real-HTTP client for the REST API in tests. */
final class ApiClient {

    /** One answer: status, parsed JSON body and the raw headers. */
    record Answer(int status, JsonNode body, java.net.http.HttpHeaders headers) {
        Answer(int status, JsonNode body) {
            this(status, body, null);
        }
    }

    private final HttpClient http;
    private final ObjectMapper json = JsonMapper.builder().build();
    private final String base;
    private final String authorization;

    ApiClient(int port, String token) {
        this("http://127.0.0.1:" + port, token == null ? null : "Bearer " + token, HttpClient.newHttpClient());
    }

    private ApiClient(String base, String authorization, HttpClient http) {
        this.base = base;
        this.authorization = authorization;
        this.http = http;
    }

    /** A client of another base URL (e.g. the HTTPS listener) over the given HTTP client. */
    static ApiClient of(String base, String token, HttpClient http) {
        return new ApiClient(base, token == null ? null : "Bearer " + token, http);
    }

    ApiClient withToken(String otherToken) {
        return new ApiClient(base, otherToken == null ? null : "Bearer " + otherToken, http);
    }

    ApiClient withPassword(String user, String password) {
        String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new ApiClient(base, "Basic " + basic, http);
    }

    Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Answer delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
    }

    Answer post(String path, Object body) {
        return postRaw(path, json.writeValueAsString(body));
    }

    Answer put(String path, Object body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))));
    }

    Answer postRaw(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Any method with an optional JSON body (null: none). */
    Answer request(String method, String path, Object body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path));
        if (body == null) {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            builder.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        }
        return send(builder);
    }

    private Answer send(HttpRequest.Builder request) {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            JsonNode body = null;
            if (!text.isEmpty() && !text.startsWith("<")) { // the UI's pages are HTML
                body = json.readTree(text);
            }
            return new Answer(response.statusCode(), body, response.headers());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> endpointDoc(String name, String url) {
        return Map.of(
                "DATA_TYPE",
                "endpoint",
                "canonical_name",
                name,
                "url",
                url,
                "username",
                "ferry",
                "password",
                "secret-password");
    }
}
