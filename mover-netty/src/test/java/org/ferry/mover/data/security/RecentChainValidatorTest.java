package org.ferry.mover.data.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyPolicyKind;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.CertificateValidationException;
import org.ferry.gsi.trust.ChainValidator;
import org.ferry.gsi.trust.ValidatedChain;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecentChainValidator} over canl's real validator: an accepted chain is validated once for
 * all connections presenting it, concurrent ones included; another chain, a rejected one, one
 * presented after the memory's age, and one whose certificate has expired meanwhile are validated
 * again.
 */
class RecentChainValidatorTest {
    @TempDir
    static Path tmp;

    static GsiTestPki pki;
    static CanlChainValidator canl;
    static GsiCredential alice;
    static GsiCredential bob;
    static GsiCredential shortLived;

    @BeforeAll
    static void pki() throws Exception {
        pki = GsiTestPki.create(tmp, "Recent");
        canl = pki.validator();
        alice = proxyFor("Alice", Duration.ofHours(12));
        bob = proxyFor("Bob", Duration.ofHours(12));
        shortLived = proxyFor("Carol", Duration.ofMinutes(2));
    }

    @AfterAll
    static void close() {
        pki.close();
    }

    static GsiCredential proxyFor(String cn, Duration proxyLifetime) throws Exception {
        return pki.proxy(cn, new ProxyRequest(proxyLifetime, ProxyPolicyKind.LIMITED, -1, 2048));
    }

    /** Counts the validations that reach canl; optionally rejects Bob, or waits to overlap callers. */
    static final class Counting implements ChainValidator {
        final AtomicInteger calls = new AtomicInteger();
        final boolean rejectBob;
        final long delayMillis;

        Counting(boolean rejectBob, long delayMillis) {
            this.rejectBob = rejectBob;
            this.delayMillis = delayMillis;
        }

        @Override
        public ValidatedChain validate(List<X509Certificate> chain) throws CertificateValidationException {
            calls.incrementAndGet();
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            ValidatedChain v = canl.validate(chain);
            if (rejectBob && v.identity().endsWith("CN=Bob")) {
                throw new CertificateValidationException("Bob is revoked here");
            }
            return v;
        }
    }

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        Instant now = Instant.now();

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void anAcceptedChainIsValidatedOnceAndAnotherChainAgain() throws Exception {
        Counting counting = new Counting(false, 0);
        RecentChainValidator recent = new RecentChainValidator(counting, Duration.ofMinutes(5), new MovableClock());
        for (int i = 0; i < 4; i++) {
            assertThat(recent.validate(alice.chain()).identity()).isEqualTo(alice.identity());
        }
        assertThat(counting.calls).hasValue(1);
        assertThat(recent.validate(bob.chain()).identity()).isEqualTo(bob.identity());
        assertThat(counting.calls).hasValue(2);
    }

    @Test
    void connectionsPresentingTheSameChainAtOnceShareOneValidation() throws Exception {
        Counting counting = new Counting(false, 200);
        RecentChainValidator recent = new RecentChainValidator(counting, Duration.ofMinutes(5), new MovableClock());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<ValidatedChain>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return recent.validate(alice.chain());
                }));
            }
            start.countDown();
            for (Future<ValidatedChain> r : results) {
                assertThat(r.get(30, TimeUnit.SECONDS).identity()).isEqualTo(alice.identity());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(counting.calls).hasValue(1);
    }

    @Test
    void rejectionsAreNotRemembered() {
        Counting counting = new Counting(true, 0);
        RecentChainValidator recent = new RecentChainValidator(counting, Duration.ofMinutes(5), new MovableClock());
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> recent.validate(bob.chain()))
                    .isInstanceOf(CertificateValidationException.class)
                    .hasMessage("Bob is revoked here");
        }
        assertThat(counting.calls).hasValue(2);
    }

    @Test
    void aChainIsValidatedAgainAfterTheMemoryAgeOrItsOwnExpiry() throws Exception {
        Counting counting = new Counting(false, 0);
        MovableClock clock = new MovableClock();
        RecentChainValidator recent = new RecentChainValidator(counting, Duration.ofMinutes(5), clock);
        recent.validate(alice.chain());
        recent.validate(shortLived.chain());
        clock.now = clock.now.plus(Duration.ofMinutes(3)); // past Carol's proxy, within the memory
        recent.validate(alice.chain());
        assertThat(counting.calls).as("Alice still remembered").hasValue(2);
        recent.validate(shortLived.chain());
        assertThat(counting.calls)
                .as("Carol's proxy expired on the moved clock")
                .hasValue(3);
        clock.now = clock.now.plus(Duration.ofMinutes(3)); // past the memory's age
        recent.validate(alice.chain());
        assertThat(counting.calls).hasValue(4);
    }
}
