package org.ferry.server.security;

import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;

/**
 * The OpenID Connect client of the sign-in page, when {@code ferry.oidc.client-id} is set. The
 * provider's discovery document is fetched at the first sign-in and kept, so the server starts
 * while the provider is down.
 */
@Configuration
@EnableConfigurationProperties(OidcLoginProperties.class)
public class OidcLoginConfiguration {

    /** The registration id: the redirect URI is {@code /login/oauth2/code/oidc}. */
    public static final String REGISTRATION_ID = "oidc";

    /** @return the provider's client registration */
    @Bean
    @ConditionalOnExpression("'${ferry.oidc.client-id:}' != '' and '${ferry.oidc.issuer-uri:}' != ''")
    public ClientRegistrationRepository oidcClientRegistrations(OidcLoginProperties oidc) {
        return new ClientRegistrationRepository() {
            private ClientRegistration registration;

            @Override
            public synchronized ClientRegistration findByRegistrationId(String registrationId) {
                if (!REGISTRATION_ID.equals(registrationId)) {
                    return null;
                }
                if (registration == null) {
                    registration = ClientRegistrations.fromIssuerLocation(oidc.issuerUri())
                            .registrationId(REGISTRATION_ID)
                            .clientId(oidc.clientId())
                            .clientSecret(oidc.clientSecret())
                            .scope("openid", "profile")
                            .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
                            .clientName(oidc.displayName())
                            .build();
                }
                return registration;
            }
        };
    }
}
