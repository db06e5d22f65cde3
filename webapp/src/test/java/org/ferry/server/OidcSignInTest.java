package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccountService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Sign-in to the pages with the institution's OpenID Connect provider: a real Spring
 * Authorization Server (started by the test, with a user who signs in there through its own
 * form), the authorization code flow from Ferry's sign-in link to the provider and back, the ID
 * token's subject mapped to a Ferry account. A provider user without a Ferry account is sent back
 * to Ferry's sign-in page with the reason. The provider answers as {@code localhost}, Ferry as
 * {@code 127.0.0.1}, so the two session cookies stay apart as in a browser.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OidcSignInTest {

    private static final Path HOME = TestHomes.create("ferry-oidc-signin");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" (?:type=\"hidden\" )?value=\"([^\"]+)\"");
    private static final ConfigurableApplicationContext PROVIDER = startProvider();

    private static ConfigurableApplicationContext startProvider() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.port", "0");
        properties.put("server.address", "127.0.0.1");
        properties.put("spring.datasource.url", "jdbc:h2:mem:oidc-signin-provider;DB_CLOSE_DELAY=-1");
        properties.put("spring.flyway.enabled", "false");
        properties.put("ferry.home", HOME.resolve("provider").toString());
        properties.put("springdoc.api-docs.enabled", "false");
        properties.put("spring.security.user.name", "frank");
        properties.put("spring.security.user.password", "franks-idp-password");
        String prefix = "spring.security.oauth2.authorizationserver.client.ferry-pages.";
        properties.put(prefix + "registration.client-id", "ferry-pages");
        properties.put(prefix + "registration.client-secret", "{noop}pages-secret");
        properties.put(prefix + "registration.client-authentication-methods", "client_secret_basic");
        properties.put(prefix + "registration.authorization-grant-types", "authorization_code");
        // a loopback redirect URI: the provider accepts any port there (RFC 8252 section 7.3)
        properties.put(prefix + "registration.redirect-uris", "http://127.0.0.1/login/oauth2/code/oidc");
        properties.put(prefix + "registration.scopes", "openid,profile");
        properties.put(prefix + "require-authorization-consent", "false");
        // as arguments, not default properties: those lose to webapp's application.properties
        // (server.port=8080) on the test class path
        return new SpringApplicationBuilder(oidcprovider.OidcProvider.class)
                .run(properties.entrySet().stream()
                        .map(property -> "--" + property.getKey() + "=" + property.getValue())
                        .toArray(String[]::new));
    }

    private static String issuer() {
        return "http://localhost:"
                + ((WebServerApplicationContext) PROVIDER).getWebServer().getPort();
    }

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.oidc.issuer-uri", OidcSignInTest::issuer);
        registry.add("ferry.oidc.client-id", () -> "ferry-pages");
        registry.add("ferry.oidc.client-secret", () -> "pages-secret");
        registry.add("ferry.oidc.provider-name", () -> "Example University");
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @AfterAll
    void stopProvider() {
        PROVIDER.close();
    }

    /** A browser: a cookie jar of its own, redirects followed by the test. */
    private HttpClient browser;

    private HttpResponse<String> get(String url) throws Exception {
        // a browser's Accept: the provider sends a page request without a session to its sign-in form
        return browser.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Accept", "text/html,application/xhtml+xml")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Follows redirects by hand (each answer is checked to be one) until a page that is not one. */
    private HttpResponse<String> follow(HttpResponse<String> answer, URI base) throws Exception {
        HttpResponse<String> current = answer;
        URI at = base;
        for (int hops = 0; current.statusCode() == 302 && hops < 10; hops++) {
            at = at.resolve(current.headers().firstValue("Location").orElseThrow());
            current = get(at.toString());
        }
        return current;
    }

    /** From Ferry's sign-in link through the provider's form and back to Ferry. */
    private HttpResponse<String> signInAtProvider(String user, String password) throws Exception {
        browser = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        String ferry = "http://127.0.0.1:" + port;
        HttpResponse<String> signin = get(ferry + "/signin");
        assertThat(signin.body()).contains("Sign in with Example University", "/oauth2/authorization/oidc");
        HttpResponse<String> loginPage = follow(get(ferry + "/oauth2/authorization/oidc"), URI.create(ferry));
        assertThat(loginPage.uri().toString())
                .as("status %d: %s", loginPage.statusCode(), loginPage.body())
                .startsWith(issuer())
                .endsWith("/login");
        Matcher token = CSRF.matcher(loginPage.body());
        assertThat(token.find()).as(loginPage.body()).isTrue();
        String form = "username=" + URLEncoder.encode(user, StandardCharsets.UTF_8) + "&password="
                + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&_csrf="
                + URLEncoder.encode(token.group(1), StandardCharsets.UTF_8);
        HttpResponse<String> posted = browser.send(
                HttpRequest.newBuilder(URI.create(issuer() + "/login"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(302);
        // provider -> Ferry's redirect URI with the code -> Ferry's page
        URI at = URI.create(issuer());
        HttpResponse<String> current = posted;
        for (int hops = 0; current.statusCode() == 302 && hops < 10; hops++) {
            at = at.resolve(current.headers().firstValue("Location").orElseThrow());
            if (at.getPath().equals("/files") || at.getPath().equals("/signin")) {
                return get(at.toString());
            }
            current = get(at.toString());
        }
        return current;
    }

    @Test
    void theProvidersUserSignsInAsTheFerryAccountItsSubjectNamesAndWithoutOneIsToldWhy() throws Exception {
        HttpResponse<String> refused = signInAtProvider("frank", "franks-idp-password");
        assertThat(refused.uri().getPath()).isEqualTo("/signin");
        assertThat(refused.body()).contains("no enabled Ferry account matches that identity");

        accounts.create("frank", Role.USER, null);
        HttpResponse<String> page = signInAtProvider("frank", "franks-idp-password");
        assertThat(page.uri().getPath()).isEqualTo("/files");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Signed in as", ">frank<");
    }
}
