package org.ferry.mover.server.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How long a failing multicast branch is retried ({@link BranchForwarder.RetryWindow}). */
class RetryWindowTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aChildThatStaysDownIsRetriedForTheWindowThenGivenUp() {
        BranchForwarder.RetryWindow window = new BranchForwarder.RetryWindow(Duration.ofMinutes(2));
        assertThat(window.retry(T0, 100)).isTrue();
        assertThat(window.retry(T0.plusSeconds(60), 100)).isTrue();
        assertThat(window.retry(T0.plusSeconds(120), 100)).isTrue();
        assertThat(window.retry(T0.plusSeconds(121), 100))
                .as("no progress past the window")
                .isFalse();
    }

    @Test
    void aChildThatFailsAgainLaterFurtherOnGetsItsOwnRetries() {
        BranchForwarder.RetryWindow window = new BranchForwarder.RetryWindow(Duration.ofMinutes(2));
        assertThat(window.retry(T0, 100)).isTrue();
        // the retries brought the child back; an hour later, past where it was, it fails again
        assertThat(window.retry(T0.plusSeconds(3600), 5_000)).isTrue();
        assertThat(window.retry(T0.plusSeconds(3700), 5_000)).isTrue();
        assertThat(window.retry(T0.plusSeconds(3721), 5_000)).isFalse();
    }

    @Test
    void aChildThatKeepsFailingShortOfWhereItWasIsNotRetriedForever() {
        // a child with a subtree starts again from its first byte after each restart: failing
        // again at or before the most it ever acknowledged is no progress
        BranchForwarder.RetryWindow window = new BranchForwarder.RetryWindow(Duration.ofMinutes(2));
        assertThat(window.retry(T0, 8_000)).isTrue();
        assertThat(window.retry(T0.plusSeconds(100), 8_000)).isTrue();
        assertThat(window.retry(T0.plusSeconds(200), 6_000)).isFalse();
    }
}
