package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
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
 * removes it from the page and the API. An {@code sshftp://} endpoint's private key is stored
 * sealed (bound to the endpoint), shown neither by the API nor the pages, and kept by a form save;
 * an encrypted key is refused by name; its one server and pinned host key cannot change.
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

    @Autowired
    DataSource dataSource;

    @Autowired
    EndpointSecrets secrets;

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

    @Test
    void anSshftpEndpointsKeyIsSealedNeverShownAndItsPinHolds() throws Exception {
        PageClient kim = PageClient.signedIn(port, HOME, "kim", "kims-password");
        ApiClient kimApi = new ApiClient(port, null).withPassword("kim", "kims-password");
        KeyPair login = ecKeyPair();
        String privateKey = openSsh(login, null);
        String keyBody = privateKey.lines().skip(1).findFirst().orElseThrow();
        String hostKey = PublicKeyEntry.toString(ecKeyPair().getPublic());
        // no sshd here: the host key is given, so nothing connects at creation
        String url = "sshftp://127.0.0.1:1";

        ApiClient.Answer encrypted = kimApi.post(
                "/v0.10/endpoint",
                Map.of(
                        "canonical_name",
                        "kim#locked",
                        "url",
                        url,
                        "username",
                        "kim",
                        "ssh_private_key",
                        openSsh(login, "a passphrase"),
                        "ssh_host_key",
                        hostKey));
        assertThat(encrypted.status()).isEqualTo(400);
        assertThat(encrypted.body().get("field").asString()).isEqualTo("ssh_private_key");
        assertThat(encrypted.body().get("message").asString()).contains("encrypted");
        assertThat(kimApi.get("/v0.10/endpoint/kim%23locked").status()).isEqualTo(404);
        ApiClient.Answer unreadable = kimApi.post(
                "/v0.10/endpoint",
                Map.of("canonical_name", "kim#nohost", "url", url, "username", "kim", "ssh_private_key", privateKey));
        assertThat(unreadable.status())
                .as("no host key to pin: nothing listens")
                .isEqualTo(400);
        assertThat(unreadable.body().get("field").asString()).isEqualTo("url");
        ApiClient.Answer onFtp = kimApi.post(
                "/v0.10/endpoint",
                Map.of(
                        "canonical_name",
                        "kim#ftp",
                        "url",
                        "ftp://127.0.0.1:" + server.port(),
                        "ssh_private_key",
                        privateKey));
        assertThat(onFtp.status()).isEqualTo(400);
        assertThat(onFtp.body().get("field").asString()).isEqualTo("ssh_private_key");
        for (String name : List.of("kim%23nohost", "kim%23ftp")) {
            assertThat(kimApi.get("/v0.10/endpoint/" + name).status()).as(name).isEqualTo(404);
        }

        ApiClient.Answer created = kimApi.post(
                "/v0.10/endpoint",
                Map.of(
                        "canonical_name",
                        "kim#dtn",
                        "url",
                        url,
                        "username",
                        "kim",
                        "ssh_private_key",
                        privateKey,
                        "ssh_host_key",
                        hostKey));
        assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
        String id = created.body().get("id").asString();
        JsonNode shown = kimApi.get("/v0.10/endpoint/" + id).body();
        assertThat(shown.toString()).doesNotContain(keyBody).doesNotContain("PRIVATE KEY");
        assertThat(shown.has("ssh_private_key")).isFalse();
        assertThat(shown.get("DATA").get(0).get("subject").asString()).isEqualTo(hostKey);
        assertThat(kim.page("/endpoints")).contains("kim#dtn").doesNotContain(keyBody);
        assertThat(kim.page("/endpoints/" + id + "/edit")).contains(url).doesNotContain(keyBody);

        // sealed at rest like a password, bound to this endpoint
        String sealed = sealedKey();
        assertThat(sealed).isNotNull().doesNotContain(keyBody).doesNotContain("PRIVATE KEY");
        assertThat(secrets.open(sealed, EndpointSecrets.passwordContext(id))).isEqualTo(privateKey);

        // the pin holds: no other server, no other host key, no password
        long serverId = shown.get("DATA").get(0).get("id").asLong();
        ApiClient.Answer another = kimApi.post(
                "/v0.10/endpoint/" + id + "/server", Map.of("DATA_TYPE", "server", "uri", "sshftp://127.0.0.1:2"));
        assertThat(another.status()).isEqualTo(400);
        assertThat(another.body().get("field").asString()).isEqualTo("uri");
        ApiClient.Answer repinned = kimApi.put(
                "/v0.10/endpoint/" + id + "/server/" + serverId,
                Map.of("subject", PublicKeyEntry.toString(ecKeyPair().getPublic())));
        assertThat(repinned.status()).isEqualTo(400);
        assertThat(repinned.body().get("field").asString()).isEqualTo("subject");
        ApiClient.Answer password = kimApi.put("/v0.10/endpoint/" + id, Map.of("password", "secret"));
        assertThat(password.status()).isEqualTo(400);
        assertThat(password.body().get("field").asString()).isEqualTo("password");
        assertThat(kimApi.put("/v0.10/endpoint/" + id, Map.of("ssh_host_key", hostKey))
                        .body()
                        .get("field")
                        .asString())
                .isEqualTo("ssh_host_key");
        ApiClient.Answer badKey = kimApi.put("/v0.10/endpoint/" + id, Map.of("ssh_private_key", "not a key"));
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.body().get("field").asString()).isEqualTo("ssh_private_key");
        assertThat(secrets.open(sealedKey(), EndpointSecrets.passwordContext(id)))
                .as("a refused change keeps the key")
                .isEqualTo(privateKey);
        String newKey = openSsh(ecKeyPair(), null);
        assertThat(kimApi.put("/v0.10/endpoint/" + id, Map.of("ssh_private_key", newKey))
                        .status())
                .isEqualTo(200);
        assertThat(secrets.open(sealedKey(), EndpointSecrets.passwordContext(id)))
                .isEqualTo(newKey);
        JsonNode after = kimApi.get("/v0.10/endpoint/" + id + "/server_list").body();
        assertThat(after.get("DATA")).hasSize(1);
        assertThat(after.get("DATA").get(0).get("subject").asString()).isEqualTo(hostKey);

        // the edit form saved with its password field empty keeps the key
        assertThat(kim.follow(kim.post(
                        "/endpoints/" + id,
                        "name",
                        "dtn",
                        "url",
                        url,
                        "username",
                        "kim",
                        "password",
                        "",
                        "description",
                        "the cluster")))
                .contains("Endpoint kim#dtn was saved.");
        assertThat(secrets.open(sealedKey(), EndpointSecrets.passwordContext(id)))
                .isEqualTo(newKey);
    }

    /** @return kim#dtn's sealed secret as the database holds it */
    private String sealedKey() throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement select =
                        c.prepareStatement("SELECT password_sealed FROM endpoint WHERE canonical_name = ?")) {
            select.setString(1, "kim#dtn");
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }
    }

    private static KeyPair ecKeyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    /** @return the key pair in OpenSSH's private key format, encrypted with {@code passphrase} if given */
    private static String openSsh(KeyPair pair, String passphrase) throws Exception {
        OpenSSHKeyEncryptionContext encryption = null;
        if (passphrase != null) {
            encryption = new OpenSSHKeyEncryptionContext();
            encryption.setPassword(passphrase);
            encryption.setCipherName("AES");
            encryption.setCipherMode("CTR");
            encryption.setCipherType("256");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, "kim", encryption, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String endpointId(String page, String endpoint) {
        Matcher id = Pattern.compile("/endpoints/([0-9a-f-]{36})/edit")
                .matcher(PageClient.row(page, "data-endpoint", endpoint));
        assertThat(id.find()).as(endpoint + " editable").isTrue();
        return id.group(1);
    }
}
