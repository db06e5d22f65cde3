package org.ferry.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test double of the Ferry server for the CLI's unit tests: a real HTTP server on
 * 127.0.0.1 answering canned JSON shaped like docs/rest-api.md and recording every request.
 */
final class FakeFerryApi implements AutoCloseable {
    /** One request the server received. */
    record Request(String method, String path, String query, String authorization, String contentType, String body) {}

    private record Answer(int status, String body) {}

    private final HttpServer server;
    private final Map<String, Deque<Answer>> answers = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeFerryApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** @return the base URL, e.g. http://127.0.0.1:41234 */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * Answers METHOD rawPath with the given bodies in turn; the last one repeats.
     *
     * @param method e.g. GET
     * @param rawPath the encoded path without query, e.g. /v0.10/endpoint/admin%23a
     */
    FakeFerryApi on(String method, String rawPath, int status, String... bodies) {
        Deque<Answer> queue = new ArrayDeque<>();
        for (String body : bodies) {
            queue.add(new Answer(status, body));
        }
        answers.put(method + " " + rawPath, queue);
        return this;
    }

    /** Appends answers to those already queued for METHOD rawPath. */
    FakeFerryApi then(String method, String rawPath, int status, String... bodies) {
        Deque<Answer> queue = answers.computeIfAbsent(method + " " + rawPath, k -> new ArrayDeque<>());
        synchronized (queue) {
            for (String body : bodies) {
                queue.add(new Answer(status, body));
            }
        }
        return this;
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    Request onlyRequest() {
        if (requests.size() != 1) {
            throw new AssertionError("expected one request but got " + requests);
        }
        return requests.get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        requests.add(new Request(
                method,
                path,
                exchange.getRequestURI().getRawQuery(),
                exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                body));
        Deque<Answer> queue = answers.get(method + " " + path);
        Answer answer;
        if (queue == null || queue.isEmpty()) {
            answer = new Answer(
                    404,
                    "{\"DATA_TYPE\":\"error\",\"code\":\"ClientError.NotFound\","
                            + "\"message\":\"no canned answer for " + method + " " + path + "\"}");
        } else {
            synchronized (queue) {
                answer = queue.size() > 1 ? queue.poll() : queue.peek();
            }
        }
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
