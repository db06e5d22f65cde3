package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
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
 * a real myproxy-server). An {@code sshftp://} endpoint made without a key (through the "Add an
 * endpoint" form) is activated with an SSH key of the user's, through the service's activation as
 * {@code POST /endpoint/{id}/activate} does: the form (login, key pasted or as a file, passphrase,
 * lifetime, a label on each, the CSRF token) is offered for such an endpoint only; the refusals
 * that need no sshd are shown on the page by name and keep nothing (a key that does not parse, an
 * encrypted key without its passphrase or with a wrong one, no login, a lifetime out of range); the
 * passphrase is never shown back. With no sshd listening the service keeps a good key with a note
 * (the login is checked at the first use); the refusals of a real sshd (key refused, host key
 * changed) and a page activation that works are SshftpEndpointTest's. Real HTTP, the form sign-in
 * with its CSRF token.
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

    @Test
    void aKeylessSshftpEndpointIsActivatedFromThePageAndRefusalsSayWhy() throws Exception {
        PageClient sam = PageClient.signedIn(port, HOME, "sam", "sams-password");
        int nothingListens;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothingListens = socket.getLocalPort();
        }
        // no sshd here: the host key is given, so nothing connects at creation
        String url = "sshftp://127.0.0.1:" + nothingListens;
        String hostKey = PublicKeyEntry.toString(ecKeyPair().getPublic());
        created(sam.post("/endpoints", "name", "shared", "url", url, "sshHostKey", hostKey));
        created(sam.post(
                "/endpoints",
                "name",
                "keyed",
                "url",
                url,
                "username",
                "sam",
                "sshPrivateKey",
                openSsh(ecKeyPair(), null),
                "sshHostKey",
                hostKey));
        created(sam.post("/endpoints", "name", "plain", "url", "ftp://127.0.0.1:" + nothingListens));

        String page = sam.page("/endpoints");
        String shared = PageClient.row(page, "data-endpoint", "sam#shared");
        assertThat(shared)
                .contains("Not activated", "Activate with an SSH key", "enctype=\"multipart/form-data\"")
                .contains("name=\"_csrf\"")
                .doesNotContain("MyProxy");
        for (String control : new String[] {"ssh-user-", "ssh-key-", "ssh-key-file-", "ssh-pass-", "ssh-life-"}) {
            Matcher id =
                    Pattern.compile("id=\"(" + control + "[0-9a-f-]{36})\"").matcher(shared);
            assertThat(id.find()).as(control).isTrue();
            assertThat(shared).as("a label for " + control).contains("<label for=\"" + id.group(1) + "\"");
        }
        assertThat(shared).contains("name=\"passphrase\" type=\"password\"");
        assertThat(PageClient.row(page, "data-endpoint", "sam#keyed"))
                .contains("no activation needed")
                .doesNotContain("activate-ssh-key");
        assertThat(PageClient.row(page, "data-endpoint", "sam#plain"))
                .contains("no activation needed")
                .doesNotContain("activate-ssh-key");

        Matcher found =
                Pattern.compile("/endpoints/([0-9a-f-]{36})/activate-ssh-key").matcher(shared);
        assertThat(found.find()).isTrue();
        String activate = "/endpoints/" + found.group(1) + "/activate-ssh-key";
        String passphrase = "sams-" + Long.toHexString(System.nanoTime());
        String encrypted = openSsh(ecKeyPair(), passphrase);
        String wrong = "wrong-" + Long.toHexString(System.nanoTime());

        String notAKey = refused(sam, sam.postMultipart(activate, null, "username", "sam", "privateKey", "not a key"));
        assertThat(notAKey).contains("Not a private key.").contains("private_key");

        String noPassphrase =
                refused(sam, sam.postMultipart(activate, file(encrypted), "username", "sam", "privateKey", ""));
        assertThat(noPassphrase).contains("Passphrase needed.").contains("encrypted");

        String wrongPassphrase = refused(
                sam,
                sam.postMultipart(
                        activate, file(encrypted), "username", "sam-login", "privateKey", "", "passphrase", wrong));
        assertThat(wrongPassphrase).contains("Wrong passphrase.").contains("passphrase does not decrypt");
        assertThat(wrongPassphrase).as("never shown back").doesNotContain(wrong);
        String again = PageClient.row(wrongPassphrase, "data-endpoint", "sam#shared");
        assertThat(again).as("the form opens again, the login kept").contains("<details class=\"ssh-activation\" open");
        assertThat(again).contains("value=\"sam-login\"");

        String noLogin = refused(sam, sam.postMultipart(activate, null, "privateKey", openSsh(ecKeyPair(), null)));
        assertThat(noLogin).contains("Login needed.").contains("username is required");

        String badLifetime = refused(
                sam,
                sam.postMultipart(
                        activate,
                        null,
                        "username",
                        "sam",
                        "privateKey",
                        openSsh(ecKeyPair(), null),
                        "lifetime",
                        "100000"));
        assertThat(badLifetime).contains("Lifetime not valid.");

        // the pasted text is the key when no file is chosen; the passphrase decrypts it once
        HttpResponse<String> kept = sam.postMultipart(
                activate, null, "username", "sam", "privateKey", encrypted, "passphrase", passphrase, "lifetime", "2");
        String activated = sam.follow(kept);
        assertThat(activated).contains("activated with SSH key SHA256:").contains("as login sam");
        assertThat(activated).contains("could not be reached");
        assertThat(activated).doesNotContain(passphrase);
        assertThat(PageClient.row(activated, "data-endpoint", "sam#shared"))
                .contains("Activated until", "Activate again with an SSH key", "Deactivate");

        String deactivated = sam.follow(sam.post("/endpoints/" + found.group(1) + "/deactivate"));
        assertThat(PageClient.row(deactivated, "data-endpoint", "sam#shared")).contains("Not activated");

        // the SSH key path is for keyless sshftp:// endpoints only
        Matcher keyed = Pattern.compile("/endpoints/([0-9a-f-]{36})/edit")
                .matcher(PageClient.row(page, "data-endpoint", "sam#keyed"));
        assertThat(keyed.find()).isTrue();
        String notThis = sam.follow(sam.postMultipart(
                "/endpoints/" + keyed.group(1) + "/activate-ssh-key",
                null,
                "username",
                "sam",
                "privateKey",
                openSsh(ecKeyPair(), null)));
        assertThat(notThis).contains("sam#keyed is not activated with an SSH key of yours");
    }

    private static void created(HttpResponse<String> made) {
        assertThat(made.statusCode()).as(made.body()).isEqualTo(302);
        assertThat(made.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).endsWith("/endpoints"));
    }

    /** @return the page after the refusal, asserting the endpoint is still not activated */
    private static String refused(PageClient client, HttpResponse<String> answer) throws Exception {
        String page = client.follow(answer);
        assertThat(page).contains("sam#shared was not activated:");
        assertThat(PageClient.row(page, "data-endpoint", "sam#shared")).contains("Not activated");
        return page;
    }

    private static String[] file(String text) {
        return new String[] {"privateKeyFile", "id_ecdsa", text};
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
        OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(pair, "sam", encryption, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
