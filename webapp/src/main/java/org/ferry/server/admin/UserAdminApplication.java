package org.ferry.server.admin;

import org.ferry.api.auth.FerryHome;
import org.ferry.api.credential.CredentialKeyConfiguration;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.api.identity.TokenCache;
import org.ferry.api.migration.LegacyVersions;
import org.ferry.api.migration.V4__SealEndpointPasswords;
import org.ferry.api.migration.V6__EndpointServerRows;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The small Spring context of {@code ferry-server user ...}: the database (migrated by Flyway
 * like the server's), the account and token services, and nothing else (no web server, no
 * scheduler, no GridFTP). Not a {@code @Configuration}, so the server's component scan leaves it out.
 */
@EnableAutoConfiguration(
        excludeName = {
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration"
        })
@EntityScan(basePackages = "org.ferry.api.domain")
@EnableJpaRepositories(basePackages = "org.ferry.api.repository")
// the Java migrations too: this context may be the first to migrate the database
@Import({
    AccountService.class,
    AccessTokenService.class,
    TokenCache.class,
    FerryHome.class,
    CredentialKeyConfiguration.class,
    V4__SealEndpointPasswords.class,
    V6__EndpointServerRows.class,
    LegacyVersions.class
})
public class UserAdminApplication {

    /** @return the same password hashing as the server's */
    @Bean
    public PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }
}
