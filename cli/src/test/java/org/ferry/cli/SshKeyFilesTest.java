package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a key file is encrypted, on keys made by OpenSSH's ssh-keygen (the CLI asks for a passphrase only then). */
class SshKeyFilesTest {

    @TempDir
    Path dir;

    @Test
    void tellsAnEncryptedOpenSshKeyFromAnUnencryptedOne() throws Exception {
        assertThat(SshKeyFiles.isEncrypted(keygen("plain", "", "ed25519"))).isFalse();
        assertThat(SshKeyFiles.isEncrypted(keygen("secret", "a passphrase", "ed25519")))
                .isTrue();
    }

    @Test
    void tellsAnEncryptedPemKeyFromAnUnencryptedOne() throws Exception {
        assertThat(SshKeyFiles.isEncrypted(keygen("plain-pem", "", "rsa", "-m", "PEM", "-b", "2048")))
                .isFalse();
        assertThat(SshKeyFiles.isEncrypted(keygen("secret-pem", "a passphrase", "rsa", "-m", "PEM", "-b", "2048")))
                .isTrue();
    }

    @Test
    void leavesTextThatIsNoKeyToTheService() {
        assertThat(SshKeyFiles.isEncrypted("not a key")).isFalse();
        assertThat(SshKeyFiles.isEncrypted(
                        "-----BEGIN OPENSSH PRIVATE KEY-----\n!!!\n-----END OPENSSH PRIVATE KEY-----\n"))
                .isFalse();
        assertThat(SshKeyFiles.isEncrypted(
                        "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"))
                .isFalse();
    }

    private String keygen(String name, String passphrase, String type, String... more) throws Exception {
        Path key = dir.resolve(name);
        List<String> command =
                new ArrayList<>(List.of("ssh-keygen", "-q", "-t", type, "-N", passphrase, "-f", key.toString()));
        command.addAll(List.of(more));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return Files.readString(key);
    }
}
