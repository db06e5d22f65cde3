package org.ferry.api.credential;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.ferry.api.auth.FerryHome;
import org.ferry.gsi.store.CredentialCipher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The credential key of the application.
 *
 * <p>The key ({@code ferry.credentials.key}: 32 bytes, base64, e.g. {@code openssl rand -base64
 * 32}) seals endpoint passwords and activated credentials at rest; without it the key comes from
 * {@code ferry.credentials.key-file} (default {@code FERRY_HOME/credential-key}), created with a
 * random key on first start. Every server instance and mover of one installation needs the same
 * key; a changed key makes stored secrets unreadable (endpoints must be given their passwords and
 * activated again).
 */
@Configuration
public class CredentialKeyConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CredentialKeyConfiguration.class);

    /**
     * @param key base64 key, or empty
     * @param keyFile key file, or empty for {@code FERRY_HOME/credential-key}
     * @param home the state directory
     * @return the cipher
     * @throws IllegalArgumentException if the key is malformed (the start fails naming the setting)
     */
    @Bean
    public CredentialCipher credentialCipher(
            @Value("${ferry.credentials.key:}") String key,
            @Value("${ferry.credentials.key-file:}") String keyFile,
            FerryHome home) {
        if (!key.isBlank()) {
            try {
                return CredentialCipher.fromBase64(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ferry.credentials.key: " + e.getMessage(), e);
            }
        }
        Path file = keyFile.isBlank() ? home.directory().resolve("credential-key") : Path.of(keyFile);
        try {
            CredentialCipher cipher = CredentialCipher.fromKeyFile(file);
            log.info("Secrets at rest are sealed with the key in {} (key id {})", file, cipher.keyId());
            return cipher;
        } catch (IOException e) {
            throw new UncheckedIOException("ferry.credentials.key-file: cannot read or create " + file, e);
        }
    }
}
