package oidcprovider;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The OpenID Connect provider of {@code org.ferry.server.OidcBearerTest}: Spring Authorization
 * Server through Spring Boot's auto-configuration, clients from properties. Outside
 * {@code org.ferry} so that neither ferry-server's component scan nor the tests' search for
 * their configuration finds it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class OidcProvider {}
