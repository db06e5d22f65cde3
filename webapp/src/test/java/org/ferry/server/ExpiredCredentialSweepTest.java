package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.api.domain.EndpointCredential;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.repository.EndpointCredentialRepository;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Expired endpoint credentials are deleted from the database by the scheduler's sweep, not kept
 * until their owner activates or deactivates again: a short-lived proxy credential (real, sealed
 * as activation seals it) is gone once its end has passed, another user's credential for the same
 * endpoint stays, and the endpoint document shows each user the same activation status
 * ({@code activated}, {@code expires_in}, {@code expire_time}, {@code activation_subject}) before
 * and after the sweep. Real HTTP, real H2, the running scheduler; the credentials are stored as
 * {@code ActivationService} stores them (its login check needs a GSI server, which the
 * integration tests have). The service's clock is one the test moves forward past the short-lived
 * credential's end: the end passing is an event the test makes happen, whatever the machine's
 * speed (the credential lives 30 minutes, which no setup takes).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(ExpiredCredentialSweepTest.Time.class)
class ExpiredCredentialSweepTest {

    /** The service's clock: the test's. */
    @TestConfiguration
    static class Time {
        @Bean
        @Primary
        SettableClock testClock() {
            return new SettableClock();
        }
    }

    @Autowired
    SettableClock clock;

    private static final Path HOME = TestHomes.create("ferry-credential-sweep");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.tick-interval", () -> "200ms");
        registry.add("ferry.gsi.ca-dir", () -> HOME.resolve("no-cas").toString());
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    EndpointCredentialRepository credentials;

    @Autowired
    EndpointSecrets secrets;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    ApplicationEventPublisher publisher;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    @Test
    void anExpiredCredentialIsDeletedAndTheActivationStatusStaysRight() throws Exception {
        ApiClient admin =
                new ApiClient(port, Files.readString(HOME.resolve("token")).trim());
        var account = accounts.create("erin", Role.USER, "password-of-erin");
        ApiClient erin = new ApiClient(
                port,
                tokens.create(AccountService.caller(account), "test", null).token());
        HashMap<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "endpoint");
        doc.put("canonical_name", "admin#site");
        doc.put("url", "gsiftp://localhost:1");
        doc.put("public", true);
        UUID endpoint = UUID.fromString(
                admin.post("/v0.10/endpoint", doc).body().get("id").asString());

        TestPki pki = TestPki.create(HOME.resolve("pki"), "Sweep");
        // 30 minutes: usable until 10 s before its end (the movers' expiry margin), then expired
        EndpointCredential shortLived = activate(
                endpoint,
                "admin",
                new BcProxyFactory()
                        .createProxy(
                                pki.user("Admin"), ProxyRequest.impersonation().withLifetime(Duration.ofMinutes(30))));
        EndpointCredential lasting = activate(
                endpoint,
                "erin",
                new BcProxyFactory()
                        .createProxy(
                                pki.user("Erin"), ProxyRequest.impersonation().withLifetime(Duration.ofHours(12))));

        JsonNode before = admin.get("/v0.10/endpoint/admin%23site").body();
        assertThat(before.get("activated").asBoolean()).isTrue();
        assertThat(before.get("expires_in").asLong()).isBetween(1L, 1800L);
        assertThat(before.get("activation_subject").asString()).isEqualTo(shortLived.getSubject());

        // not before its end has passed: the scheduler ticks every 200 ms and keeps the row
        assertThat(credentials.existsById(shortLived.getId())).isTrue();
        // the end passes (the test's clock); the sweep deletes the row
        clock.advance(Duration.ofMinutes(31));
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(100))
                .alias("the expired credential deleted")
                .until(() -> !credentials.existsById(shortLived.getId()));
        assertThat(clock.instant()).isAfterOrEqualTo(shortLived.getNotAfter());
        assertThat(jdbc.queryForObject(
                        "select count(*) from endpoint_credential where owner_name = 'admin'", Integer.class))
                .isZero();
        assertThat(credentials.existsById(lasting.getId())).isTrue();

        // the owner: not activated, as while the expired row was still there
        JsonNode after = admin.get("/v0.10/endpoint/admin%23site").body();
        assertThat(after.get("activated").asBoolean()).isFalse();
        assertThat(after.get("expires_in").asLong()).isZero();
        assertThat(after.get("expire_time").isNull()).isTrue();
        assertThat(after.get("activation_subject").isNull()).isTrue();
        JsonNode requirements = admin.get("/v0.10/endpoint/admin%23site/activation_requirements")
                .body();
        assertThat(requirements.get("activated").asBoolean()).isFalse();
        assertThat(requirements.get("expires_in").asLong()).isZero();
        assertThat(admin.get("/v0.10/operation/endpoint/admin%23site/ls?path=/")
                        .body()
                        .get("code")
                        .asString())
                .isEqualTo("ClientError.ActivationRequired");
        ApiClient.Answer deactivate = admin.post("/v0.10/endpoint/admin%23site/deactivate", Map.of());
        assertThat(deactivate.status()).isEqualTo(409);

        // the other user: still activated with their own credential, its end unchanged
        JsonNode forErin = erin.get("/v0.10/endpoint/admin%23site").body();
        assertThat(forErin.get("activated").asBoolean()).isTrue();
        assertThat(forErin.get("expires_in").asLong()).isBetween(11L * 3600, 12L * 3600);
        assertThat(forErin.get("activation_subject").asString()).isEqualTo(lasting.getSubject());
    }

    /** Stores a sealed credential and announces it, in one transaction, as activation does. */
    private EndpointCredential activate(UUID endpoint, String user, GsiCredential proxy) throws Exception {
        String pem = PemFiles.credentialPem(proxy);
        return transactions.execute(tx -> {
            EndpointCredential row = new EndpointCredential(
                    endpoint, user, EndpointCredential.Method.DELEGATE_PROXY, proxy.identity(), proxy.notAfter(), null);
            row.setSealedCredential(secrets.seal(pem, EndpointSecrets.credentialContext(row.getId())));
            credentials.save(row);
            publisher.publishEvent(new EndpointActivatedEvent(endpoint, user));
            return row;
        });
    }
}
