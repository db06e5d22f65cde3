package org.ferry.api.credential;

import java.nio.file.Path;
import java.time.Clock;
import org.ferry.api.auth.FerryHome;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The site's GSI trust and the session opener of the application (the credential key is
 * {@link CredentialKeyConfiguration}'s).
 */
@Configuration
public class CredentialsConfiguration {

    /**
     * @param caDirectory the site's trust directory ({@code ferry.gsi.ca-dir}; default
     *     {@code X509_CERT_DIR}, else {@code /etc/grid-security/certificates})
     * @param home the state directory (merged trust directories go to {@code trust/} under it)
     * @return validators for the site's CAs plus each user's bootstrapped roots
     */
    @Bean(destroyMethod = "close")
    public TrustCache trustCache(
            @Value("${ferry.gsi.ca-dir:${X509_CERT_DIR:/etc/grid-security/certificates}}") String caDirectory,
            FerryHome home) {
        return new TrustCache(Path.of(caDirectory), home.directory().resolve("trust"));
    }

    /** @return the wall clock */
    @Bean
    @ConditionalOnMissingBean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * @return opens sessions from {@link org.ferry.mover.access.EndpointAccess} values
     */
    @Bean
    public EndpointSessions endpointSessions(
            GridFtpClient client, CredentialCipher cipher, TrustCache trustCache, Clock clock) {
        return new EndpointSessions(client, cipher, trustCache, clock);
    }
}
