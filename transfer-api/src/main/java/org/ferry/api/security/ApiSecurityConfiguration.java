package org.ferry.api.security;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtDecoders;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.ObjectMapper;

/**
 * Spring Security for {@code /v0.10/**}: stateless, no CSRF (no cookies), every request
 * authenticated by one of an access token, a password (Basic), a client certificate (on the
 * HTTPS listener) or an OIDC JWT; 401/403 answers as JSON error documents. Other paths (the
 * OpenAPI document and its UI) are open.
 */
@Configuration
@EnableWebSecurity
@EnableConfigurationProperties({OidcProperties.class, HttpsProperties.class})
public class ApiSecurityConfiguration {

    /** @return bcrypt by default, other {@code {id}} formats readable */
    @Bean
    public PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /** @return the Basic authentication of accounts */
    @Bean
    public PasswordAuthenticationProvider passwordAuthenticationProvider(AccountService accounts) {
        return new PasswordAuthenticationProvider(accounts);
    }

    /**
     * @return JWT checks of the configured issuer (signature, issuer, time, optional audience);
     *     discovery runs at the first JWT so the server starts while the provider is down
     */
    @Bean
    public OidcAuthenticationProvider oidcAuthenticationProvider(OidcProperties oidc, AccountService accounts) {
        if (!oidc.enabled()) {
            return null;
        }
        JwtDecoder decoder = new SupplierJwtDecoder(() -> {
            NimbusJwtDecoder nimbus = (NimbusJwtDecoder) JwtDecoders.fromIssuerLocation(oidc.issuerUri());
            List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>();
            validators.add(JwtValidators.createDefaultWithIssuer(oidc.issuerUri()));
            if (oidc.audience() != null && !oidc.audience().isBlank()) {
                validators.add(new JwtClaimValidator<List<String>>(
                        "aud", aud -> aud != null && aud.contains(oidc.audience())));
            }
            nimbus.setJwtValidator(new DelegatingOAuth2TokenValidator<>(validators));
            return nimbus;
        });
        return new OidcAuthenticationProvider(decoder, accounts, oidc.claim());
    }

    /** @return the bearer access token provider */
    @Bean
    public AccessTokenAuthenticationProvider accessTokenAuthenticationProvider(
            AccessTokenService tokens, OidcProperties oidc) {
        return new AccessTokenAuthenticationProvider(tokens, oidc.enabled());
    }

    /** @return the client certificate authenticator, when the HTTPS listener is on */
    @Bean(destroyMethod = "close")
    public ClientCertificateAuthenticator clientCertificateAuthenticator(
            HttpsProperties https, AccountService accounts) {
        if (!https.enabled()) {
            return null;
        }
        return new ClientCertificateAuthenticator(Path.of(https.caDirectory()), Path.of(https.gridmapFile()), accounts);
    }

    /** @return the API's filter chain */
    @Bean
    @Order(1)
    public SecurityFilterChain apiSecurity(
            HttpSecurity http,
            ObjectMapper json,
            PasswordAuthenticationProvider passwords,
            AccessTokenAuthenticationProvider tokens,
            ObjectProvider<OidcAuthenticationProvider> oidc,
            ObjectProvider<ClientCertificateAuthenticator> certificates)
            throws Exception {
        JsonAuthenticationEntryPoint entryPoint = new JsonAuthenticationEntryPoint(json);
        JsonAccessDeniedHandler denied = new JsonAccessDeniedHandler(json);
        List<AuthenticationProvider> bearer = new ArrayList<>();
        bearer.add(tokens);
        oidc.ifAvailable(bearer::add);
        AuthenticationManager bearerManager = new ProviderManager(bearer);
        http.securityMatcher("/v0.10/**", "/v0.10")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .authenticationManager(new ProviderManager(List.of(passwords)))
                .authorizeHttpRequests(authorize -> authorize.anyRequest().authenticated())
                .httpBasic(basic -> basic.authenticationEntryPoint(entryPoint))
                .oauth2ResourceServer(resource -> resource.authenticationManagerResolver(request -> bearerManager)
                        .authenticationEntryPoint(entryPoint)
                        .accessDeniedHandler(denied))
                .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint).accessDeniedHandler(denied));
        certificates.ifAvailable(authenticator -> http.addFilterBefore(
                new ClientCertificateFilter(authenticator, entryPoint), BearerTokenAuthenticationFilter.class));
        return http.build();
    }

    /** @return everything else (API docs, later the web pages, which bring their own rules) is open */
    @Bean
    @Order(2)
    public SecurityFilterChain openSecurity(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        return http.build();
    }

    /** @return registers the {@link org.ferry.api.identity.Caller} argument of controller methods */
    @Bean
    public WebMvcConfigurer callerArgument() {
        return new WebMvcConfigurer() {
            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(new CallerArgumentResolver());
            }
        };
    }
}
