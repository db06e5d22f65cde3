package org.ferry.api.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.UUID;
import org.ferry.api.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

/**
 * A private key given where a public one belongs (pasted on the SSH keys page, sent to
 * {@code POST /ssh_key}, piped to {@code ferry ssh-key add -}) is refused naming
 * {@code public_key} before any parsing or storing (the service has no stores here: reaching them
 * would fail), and the refusal does not repeat the key.
 */
class SshKeyServiceTest {

    private static final Caller CALLER = new Caller(UUID.randomUUID(), "carol", false);

    /** The shapes of OpenSSH's, PEM's and PuTTY's private key files (bodies cut short, made up). */
    private static final String[] PRIVATE = {
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
                + "-----END OPENSSH PRIVATE KEY-----\n",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretsecretsecret\n-----END RSA PRIVATE KEY-----",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAIsecretsecretsecret\n"
    };

    @Test
    void aPrivateKeyIsRefusedByNameAndNotRepeated() {
        SshKeyService service = new SshKeyService(null, null);
        for (String key : PRIVATE) {
            InvalidRequestException refused =
                    catchThrowableOfType(InvalidRequestException.class, () -> service.add(CALLER, key, null));
            assertThat(refused).as(key).isNotNull();
            assertThat(refused.field()).isEqualTo("public_key");
            assertThat(refused.getMessage()).contains("private key", "nothing was stored");
            assertThat(refused.getMessage()).doesNotContain("b3BlbnNzaC1rZXktdjE", "secret");
        }
    }

    @Test
    void aPublicKeyLineIsNotTakenForAPrivateOne() {
        assertThat(
                        SshKeyService.isPrivateKey(
                                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq9Vt1O9JQ4cLQ7Wk6c3sGmHgk6bT3XHn5qQ0pGX5Ff carol@laptop"))
                .isFalse();
    }
}
