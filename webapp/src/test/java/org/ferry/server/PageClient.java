package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's part in the pages' tests over real HTTP: a cookie jar, no redirects followed, the
 * form sign-in with its CSRF token, form posts that carry the page's token.
 */
final class PageClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final int port;
    private final HttpClient browser = HttpClient.newBuilder()
            .cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private PageClient(int port) {
        this.port = port;
    }

    /**
     * Makes the account with the first-start admin's token from {@code home} and signs it in.
     *
     * @return a signed-in client
     */
    static PageClient signedIn(int port, Path home, String user, String password) throws Exception {
        HttpResponse<String> created = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0.10/user"))
                                .header(
                                        "Authorization",
                                        "Bearer "
                                                + Files.readString(home.resolve("token"))
                                                        .trim())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        PageClient client = new PageClient(port);
        HttpResponse<String> signedIn = client.post("/signin", "username", user, "password", password);
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).doesNotContain("error"));
        return client;
    }

    /** @return the page's body, asserting a 200 */
    String page(String path) throws Exception {
        HttpResponse<String> page = get(path);
        assertThat(page.statusCode()).as(path + ": " + page.body()).isEqualTo(200);
        return page.body();
    }

    /** @return the answer to a GET of the path, whatever its status */
    HttpResponse<String> get(String path) throws Exception {
        return browser.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Posts a form with the CSRF token of the sign-in page (or, once signed in, any page's).
     *
     * @param pairs names and values in turn; a name may repeat (several checkboxes of one name)
     */
    HttpResponse<String> post(String path, String... pairs) throws Exception {
        List<String> fields = new ArrayList<>(List.of(pairs));
        fields.add("_csrf");
        fields.add(csrf());
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.size(); i += 2) {
            body.append(body.isEmpty() ? "" : "&")
                    .append(URLEncoder.encode(fields.get(i), StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(fields.get(i + 1), StandardCharsets.UTF_8));
        }
        return browser.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Posts a {@code multipart/form-data} form (one with a file input) with the CSRF token.
     *
     * @param file the file part's name, file name and text; null for none
     * @param pairs names and values of the text parts in turn
     */
    HttpResponse<String> postMultipart(String path, String[] file, String... pairs) throws Exception {
        List<String> fields = new ArrayList<>(List.of(pairs));
        fields.add("_csrf");
        fields.add(csrf());
        String boundary = "----ferry" + Long.toHexString(System.nanoTime());
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < fields.size(); i += 2) {
            body.append("--").append(boundary).append("\r\n");
            body.append("Content-Disposition: form-data; name=\"")
                    .append(fields.get(i))
                    .append("\"\r\n\r\n");
            body.append(fields.get(i + 1)).append("\r\n");
        }
        if (file != null) {
            body.append("--").append(boundary).append("\r\n");
            body.append("Content-Disposition: form-data; name=\"")
                    .append(file[0])
                    .append("\"; filename=\"")
                    .append(file[1])
                    .append("\"\r\n");
            body.append("Content-Type: application/octet-stream\r\n\r\n");
            body.append(file[2]).append("\r\n");
        }
        body.append("--").append(boundary).append("--\r\n");
        return browser.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String csrf() throws Exception {
        HttpResponse<String> page = browser.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/signin"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher token = CSRF.matcher(page.body());
        if (token.find()) {
            return token.group(1);
        }
        token = CSRF.matcher(page("/endpoints"));
        assertThat(token.find()).isTrue();
        return token.group(1);
    }

    /**
     * Follows a form's redirect (the post-redirect-get of every page form).
     *
     * @return the page the redirect names, asserting a 302 and a 200
     */
    String follow(HttpResponse<String> redirect) throws Exception {
        assertThat(redirect.statusCode()).as(redirect.body()).isEqualTo(302);
        String location = redirect.headers().firstValue("Location").orElseThrow();
        URI target = URI.create("http://127.0.0.1:" + port + "/").resolve(location);
        return page(target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery()));
    }

    /** @return the table row whose {@code data-} attribute is {@code name} */
    static String row(String page, String attribute, String name) {
        int at = page.indexOf(attribute + "=\"" + name + "\"");
        assertThat(at).as(name + " listed").isNotNegative();
        return page.substring(at, page.indexOf("</tr>", at));
    }
}
