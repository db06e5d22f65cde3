package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeArgumentsTest {

    @Test
    void durationsUseGlobusCliUnits() {
        assertThat(TimeArguments.duration("30d")).isEqualTo(Duration.ofDays(30));
        assertThat(TimeArguments.duration("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(TimeArguments.duration("2w")).isEqualTo(Duration.ofDays(14));
        assertThat(TimeArguments.duration("500s")).isEqualTo(Duration.ofSeconds(500));
        assertThatThrownBy(() -> TimeArguments.duration("6 hours")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimeArguments.duration("0s")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deadlinesAreRelativeOrIsoAndComeOutInUtc() {
        Instant now = Instant.parse("2026-11-22T10:15:30Z");
        assertThat(TimeArguments.deadline("+6h", now)).isEqualTo("2026-11-22T16:15:30+00:00");
        assertThat(TimeArguments.deadline("+1d12h", now)).isEqualTo("2026-11-23T22:15:30+00:00");
        assertThat(TimeArguments.deadline("2026-11-23T08:00:00+02:00", now)).isEqualTo("2026-11-23T06:00:00+00:00");
        assertThatThrownBy(() -> TimeArguments.deadline("tomorrow", now)).hasMessageContaining("+DURATION");
    }
}
