package org.ferry.server.security;

import java.util.ArrayList;
import java.util.List;
import org.ferry.api.identity.AccountService;
import org.ferry.api.security.AccessTokenAuthenticationProvider;
import org.ferry.api.security.PasswordAuthenticationProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.oidc.authentication.OidcAuthorizationCodeAuthenticationProvider;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcUserService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.savedrequest.HttpSessionRequestCache;

/**
 * The filter chains of the actuator and the web pages (after transfer-api's API and API-docs
 * chains, orders 1 and 2).
 *
 * <p>Actuator: health (liveness, readiness) is open, as load balancers and orchestrators probe it
 * without credentials; every other endpoint (metrics, Prometheus) needs an admin, by token or
 * password, statelessly.
 *
 * <p>Pages: sign-in with an account's password ({@code /signin}) or, when {@code ferry.oidc} has a
 * client id, the institution's OpenID Connect provider; a session cookie; Spring Security's CSRF
 * token on every form (Thymeleaf adds it to each {@code th:action} form); sign-out by POST.
 */
@Configuration
public class PageSecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(PageSecurityConfiguration.class);

    /** The sign-in page. */
    public static final String SIGN_IN = "/signin";

    /** @return the actuator's chain */
    @Bean
    @Order(3)
    public SecurityFilterChain actuatorSecurity(
            HttpSecurity http, PasswordAuthenticationProvider passwords, AccessTokenAuthenticationProvider tokens)
            throws Exception {
        ProviderManager bearer = new ProviderManager(List.of(tokens));
        http.securityMatcher("/actuator", "/actuator/**")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .authenticationManager(new ProviderManager(List.of(passwords)))
                .authorizeHttpRequests(authorize -> authorize
                        .requestMatchers("/actuator/health", "/actuator/health/**")
                        .permitAll()
                        .anyRequest()
                        .hasRole("ADMIN"))
                .httpBasic(basic -> {})
                .oauth2ResourceServer(resource -> resource.authenticationManagerResolver(request -> bearer));
        return http.build();
    }

    /** @return the pages' chain: everything the other chains do not match */
    @Bean
    @Order(4)
    public SecurityFilterChain pageSecurity(
            HttpSecurity http,
            PasswordAuthenticationProvider passwords,
            AccountService accounts,
            ObjectProvider<ClientRegistrationRepository> oidcClients,
            OidcLoginProperties oidc)
            throws Exception {
        HttpSessionSecurityContextRepository contexts = new HttpSessionSecurityContextRepository();
        HttpSessionRequestCache requests = new HttpSessionRequestCache();
        requests.setMatchingRequestParameterName(null); // the page asked for, without '?continue'
        // after sign-in, back to the page asked for: never to a task's stream, which a page's
        // script opened while its session ran out
        requests.setRequestMatcher(request -> "GET".equals(request.getMethod())
                && !request.getRequestURI().endsWith("/stream")
                && !String.valueOf(request.getHeader("Accept")).contains("text/event-stream"));
        ClientRegistrationRepository clients = oidcClients.getIfAvailable();
        List<AuthenticationProvider> providers = new ArrayList<>(List.of(passwords));
        if (clients != null) {
            // this chain's own manager replaces the one oauth2Login would have filled: the code
            // exchange and ID token check (signature, issuer, audience, nonce) need their provider
            providers.add(new OidcAuthorizationCodeAuthenticationProvider(
                    new RestClientAuthorizationCodeTokenResponseClient(), new OidcUserService()));
        }
        http.authenticationManager(new ProviderManager(providers))
                .securityContext(context -> context.securityContextRepository(contexts))
                .requestCache(cache -> cache.requestCache(requests))
                .sessionManagement(s -> s.sessionFixation(fixation -> fixation.changeSessionId()))
                .authorizeHttpRequests(authorize -> authorize
                        .requestMatchers(SIGN_IN, "/css/**", "/js/**", "/webjars/**", "/favicon.ico", "/error")
                        .permitAll()
                        .anyRequest()
                        .authenticated())
                .formLogin(form -> form.loginPage(SIGN_IN)
                        .loginProcessingUrl(SIGN_IN)
                        .failureUrl(SIGN_IN + "?error")
                        .defaultSuccessUrl("/files", false))
                .logout(logout -> logout.logoutUrl("/signout")
                        .logoutSuccessUrl(SIGN_IN + "?signedout")
                        .deleteCookies("JSESSIONID"))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self';"
                                + " frame-ancestors 'none'; form-action 'self'")))
                .addFilterAfter(new AccountStillEnabledFilter(accounts, contexts), SecurityContextHolderFilter.class);
        if (clients != null) {
            http.oauth2Login(login -> login.loginPage(SIGN_IN)
                    .clientRegistrationRepository(clients)
                    .successHandler(new OidcSignInSuccessHandler(accounts, contexts, oidc.claim()))
                    .failureHandler((request, response, failure) -> {
                        // the reason stays in the log: it can name the provider's internals
                        log.warn("Sign-in through the OpenID Connect provider failed: {}", failure.toString());
                        response.sendRedirect(request.getContextPath() + SIGN_IN + "?error=provider");
                    }));
        }
        return http.build();
    }
}
