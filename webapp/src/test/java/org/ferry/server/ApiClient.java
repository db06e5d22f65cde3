package org.ferry.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** A tiny real-HTTP client for the REST API in tests. */
final class ApiClient {

    /** One answer: status and parsed JSON body. */
    record Answer(int status, JsonNode body) {}

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = JsonMapper.builder().build();
    private final String base;
    private final String token;

    ApiClient(int port, String token) {
        this.base = "http://127.0.0.1:" + port;
        this.token = token;
    }

    ApiClient withToken(String otherToken) {
        return new ApiClient(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), otherToken);
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

    Answer postRaw(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Answer send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            return new Answer(response.statusCode(), text.isEmpty() ? null : json.readTree(text));
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
