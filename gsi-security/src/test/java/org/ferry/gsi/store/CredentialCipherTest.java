package org.ferry.gsi.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String OTHER_KEY =
            Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

    @TempDir
    Path tmp;

    @Test
    void sealsAndOpensWithTheSameContext() throws Exception {
        CredentialCipher cipher = CredentialCipher.fromBase64(KEY);
        String sealed = cipher.seal("s3cret password", "endpoint-password:1");
        assertThat(sealed).startsWith("fc1:" + cipher.keyId() + ":").doesNotContain("s3cret");
        assertThat(cipher.openString(sealed, "endpoint-password:1")).isEqualTo("s3cret password");
    }

    @Test
    void everySealUsesAFreshNonce() {
        CredentialCipher cipher = CredentialCipher.fromBase64(KEY);
        assertThat(cipher.seal("same", "c")).isNotEqualTo(cipher.seal("same", "c"));
    }

    @Test
    void aValueCopiedToAnotherRecordDoesNotOpen() {
        CredentialCipher cipher = CredentialCipher.fromBase64(KEY);
        String sealed = cipher.seal("secret", "endpoint-password:1");
        assertThatThrownBy(() -> cipher.open(sealed, "endpoint-password:2"))
                .isInstanceOf(GeneralSecurityException.class)
                .hasMessageContaining("sealed for another record");
    }

    @Test
    void anAlteredValueDoesNotOpen() {
        CredentialCipher cipher = CredentialCipher.fromBase64(KEY);
        String sealed = cipher.seal("secret", "c");
        byte[] data = Base64.getDecoder().decode(sealed.substring(sealed.lastIndexOf(':') + 1));
        data[data.length - 20] ^= 1;
        String altered = sealed.substring(0, sealed.lastIndexOf(':') + 1)
                + Base64.getEncoder().encodeToString(data);
        assertThatThrownBy(() -> cipher.open(altered, "c")).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> cipher.open("fc1:" + cipher.keyId() + ":AAAA", "c"))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> cipher.open("plain text", "c")).hasMessageContaining("not a sealed credential");
    }

    @Test
    void anotherKeyIsNamedInsteadOfATagMismatch() {
        String sealed = CredentialCipher.fromBase64(KEY).seal("secret", "c");
        CredentialCipher other = CredentialCipher.fromBase64(OTHER_KEY);
        assertThatThrownBy(() -> other.open(sealed, "c"))
                .hasMessageContaining(
                        "sealed under key " + CredentialCipher.fromBase64(KEY).keyId())
                .hasMessageContaining("configured key is " + other.keyId());
    }

    @Test
    void badKeysAreRefusedWithoutRepeatingThem() {
        assertThatThrownBy(() -> CredentialCipher.fromBase64("not base64 at all!"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("not base64 at all!")
                .hasMessageContaining("openssl rand -base64 32");
        assertThatThrownBy(() -> CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[16])))
                .hasMessageContaining("must be 32 bytes");
    }

    @Test
    void aMissingKeyFileIsCreatedPrivateAndReusedAfterwards() throws Exception {
        Path file = tmp.resolve("sub/credential-key");
        CredentialCipher first = CredentialCipher.fromKeyFile(file);
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String sealed = first.seal("secret", "c");
        CredentialCipher again = CredentialCipher.fromKeyFile(file);
        assertThat(again.keyId()).isEqualTo(first.keyId());
        assertThat(again.openString(sealed, "c")).isEqualTo("secret");
        assertThat(again.toString()).doesNotContain(Files.readString(file).strip());
    }

    @Test
    void aKeyFileWithoutAKeyNamesTheFile() throws Exception {
        Path file = Files.writeString(tmp.resolve("bad-key"), "hello\n");
        assertThatThrownBy(() -> CredentialCipher.fromKeyFile(file)).hasMessageStartingWith(file.toString());
    }
}
