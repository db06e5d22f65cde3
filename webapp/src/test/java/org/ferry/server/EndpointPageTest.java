package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The endpoint pages' edit and delete over real HTTP, against a real Ferry GridFTP server that
 * wants a login: the edit form shows the stored fields and never the password; a save renames,
 * describes, sets the default directory and visibility, and keeps the stored password when the
 * field is left empty (a listing through the API still logs in); a bad URL comes back as the form
 * with the error beside its field and changes nothing; another user may neither open the form nor
 * save nor delete (403 while the endpoint is public, 404 once it is private); the owner's delete
 * removes it from the page and the API.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndpointPageTest {

    private static final Path HOME = TestHomes.create("ferry-endpoint-page");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
    }

    @LocalServerPort
    int port;

    private Path site;
    private GridFtpServer server;

    @BeforeAll
    void startServer() throws Exception {
        site = Files.createDirectories(HOME.resolve("site"));
        Files.createDirectories(site.resolve("data"));
        Files.writeString(site.resolve("data/sample.txt"), "sample");
        server = GridFtpServer.start(GridFtpServerConfig.loopback(site)
                .withAuthenticator((user, password) -> "alice".equals(user) && "pw-a".equals(password)));
    }

    @AfterAll
    void stopServer() {
        server.close();
    }

    @Test
    void anEndpointIsEditedKeepingItsPasswordAndDeletedOnlyByItsOwner() throws Exception {
        PageClient ivy = PageClient.signedIn(port, HOME, "ivy", "ivys-password");
        ApiClient ivyApi = new ApiClient(port, null).withPassword("ivy", "ivys-password");
        String url = "ftp://127.0.0.1:" + server.port();
        assertThat(ivy.follow(
                        ivy.post("/endpoints", "name", "lab", "url", url, "username", "alice", "password", "pw-a")))
                .contains("Endpoint ivy#lab was created.");
        String id = endpointId(ivy.page("/endpoints"), "ivy#lab");

        String form = ivy.page("/endpoints/" + id + "/edit");
        assertThat(form)
                .contains("Edit ivy#lab", "value=\"lab\"", "value=\"" + url + "\"", "value=\"alice\"")
                .contains("Leave empty to keep the stored password.")
                .doesNotContain("pw-a");

        String saved = ivy.follow(ivy.post(
                "/endpoints/" + id,
                "name",
                "lab2",
                "url",
                url,
                "username",
                "alice",
                "password",
                "",
                "description",
                "the lab's disk",
                "defaultDirectory",
                "/data",
                "isPublic",
                "true"));
        assertThat(saved).contains("Endpoint ivy#lab2 was saved.");
        assertThat(PageClient.row(saved, "data-endpoint", "ivy#lab2")).contains("Public", "the lab&#39;s disk");
        JsonNode stored = ivyApi.get("/v0.10/endpoint/" + id).body();
        assertThat(stored.get("canonical_name").asString()).isEqualTo("ivy#lab2");
        assertThat(stored.get("display_name").asString()).isEqualTo("lab2");
        assertThat(stored.get("description").asString()).isEqualTo("the lab's disk");
        assertThat(stored.get("default_directory").asString()).isEqualTo("/data");
        assertThat(stored.get("public").asBoolean()).isTrue();
        assertThat(stored.get("username").asString()).isEqualTo("alice");
        assertThat(stored.get("url").asString()).isEqualTo(url);
        // the empty password field kept the stored one: the listing logs in as alice
        ApiClient.Answer listing = ivyApi.get("/v0.10/operation/endpoint/" + id + "/ls?path=/data");
        assertThat(listing.status()).as(String.valueOf(listing.body())).isEqualTo(200);
        assertThat(listing.body().toString()).contains("sample.txt");
        // the file manager starts in the default directory
        assertThat(ivy.page("/files?left=" + id)).contains("data-name=\"sample.txt\"");

        HttpResponse<String> bad = ivy.post(
                "/endpoints/" + id, "name", "lab2", "url", "http://example.org/", "username", "alice", "password", "");
        assertThat(bad.statusCode()).isEqualTo(200);
        assertThat(bad.body())
                .contains("id=\"error-message\"")
                .containsPattern("<input id=\"url\"[^>]*aria-invalid=\"true\"");
        assertThat(ivyApi.get("/v0.10/endpoint/" + id).body().get("url").asString())
                .isEqualTo(url);

        // another user sees the public endpoint but may not change it
        PageClient jon = PageClient.signedIn(port, HOME, "jon", "jons-password");
        assertThat(jon.page("/endpoints")).contains("data-endpoint=\"ivy#lab2\"");
        assertThat(PageClient.row(jon.page("/endpoints"), "data-endpoint", "ivy#lab2"))
                .doesNotContain("/edit", "/delete");
        assertThat(jon.get("/endpoints/" + id + "/edit").statusCode()).isEqualTo(403);
        HttpResponse<String> jonsSave =
                jon.post("/endpoints/" + id, "name", "taken", "url", url, "username", "alice", "password", "");
        assertThat(jonsSave.statusCode()).isEqualTo(403);
        assertThat(jonsSave.body()).contains("Only ivy may change ivy#lab2");
        assertThat(jon.post("/endpoints/" + id + "/delete").statusCode()).isEqualTo(403);
        assertThat(ivyApi.get("/v0.10/endpoint/" + id)
                        .body()
                        .get("canonical_name")
                        .asString())
                .isEqualTo("ivy#lab2");

        // unchecked box and empty description: private, no description
        assertThat(ivy.follow(ivy.post(
                        "/endpoints/" + id,
                        "name",
                        "lab2",
                        "url",
                        url,
                        "username",
                        "alice",
                        "password",
                        "",
                        "description",
                        "",
                        "defaultDirectory",
                        "/data")))
                .contains("Endpoint ivy#lab2 was saved.");
        JsonNode privateAgain = ivyApi.get("/v0.10/endpoint/" + id).body();
        assertThat(privateAgain.get("public").asBoolean()).isFalse();
        assertThat(privateAgain.path("description").asString("")).isEmpty();
        assertThat(jon.page("/endpoints")).doesNotContain("ivy#lab2");
        assertThat(jon.get("/endpoints/" + id + "/edit").statusCode()).isEqualTo(404);
        assertThat(jon.post("/endpoints/" + id + "/delete").statusCode()).isEqualTo(404);

        String deleted = ivy.follow(ivy.post("/endpoints/" + id + "/delete"));
        assertThat(deleted).contains("Endpoint ivy#lab2 was deleted.").doesNotContain("data-endpoint=\"ivy#lab2\"");
        assertThat(ivyApi.get("/v0.10/endpoint/" + id).status()).isEqualTo(404);
        assertThat(ivy.get("/endpoints/" + id + "/edit").statusCode()).isEqualTo(404);
    }

    private static String endpointId(String page, String endpoint) {
        Matcher id = Pattern.compile("/endpoints/([0-9a-f-]{36})/edit")
                .matcher(PageClient.row(page, "data-endpoint", endpoint));
        assertThat(id.find()).as(endpoint + " editable").isTrue();
        return id.group(1);
    }
}
