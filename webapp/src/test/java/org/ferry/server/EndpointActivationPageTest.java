package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The endpoints page tells a {@code gsiftp://} endpoint the caller has not activated from a
 * clear-text one that needs no activation, and activates through a MyProxy form: a MyProxy server
 * that cannot be reached gives a clear message on the page and leaves the endpoint not activated
 * (the successful MyProxy activation through the same service is ServiceGsiInteropTest's, against
 * a real myproxy-server). Real HTTP, the form sign-in with its CSRF token.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EndpointActivationPageTest {

    private static final Path HOME = TestHomes.create("ferry-activation-page");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void aGsiEndpointIsActivatedFromThePageAndAFailedActivationSaysWhy() throws Exception {
        PageClient erin = PageClient.signedIn(port, HOME, "erin", "erins-password");
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        for (String[] endpoint : new String[][] {
            {"grid", "gsiftp://127.0.0.1:" + nothingListens}, {"plain", "ftp://127.0.0.1:" + nothingListens}
        }) {
            HttpResponse<String> made = erin.post("/endpoints", "name", endpoint[0], "url", endpoint[1]);
            assertThat(made.statusCode()).as(made.body()).isEqualTo(302);
        }

        String page = erin.page("/endpoints");
        assertThat(PageClient.row(page, "data-endpoint", "erin#grid"))
                .contains("Not activated", "Activate with MyProxy");
        assertThat(PageClient.row(page, "data-endpoint", "erin#plain"))
                .contains("no activation needed")
                .doesNotContain("MyProxy");

        Matcher id = Pattern.compile("/endpoints/([0-9a-f-]{36})/activate")
                .matcher(PageClient.row(page, "data-endpoint", "erin#grid"));
        assertThat(id.find()).isTrue();
        HttpResponse<String> refused = erin.post(
                "/endpoints/" + id.group(1) + "/activate",
                "username",
                "erin",
                "passphrase",
                "not-stored",
                "hostname",
                "127.0.0.1:" + nothingListens);
        assertThat(refused.statusCode()).isEqualTo(302);
        String after = erin.page("/endpoints");
        assertThat(after).contains("erin#grid was not activated");
        assertThat(PageClient.row(after, "data-endpoint", "erin#grid")).contains("Not activated");
        assertThat(after).doesNotContain("not-stored");
    }
}
