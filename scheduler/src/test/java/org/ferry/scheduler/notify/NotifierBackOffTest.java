package org.ferry.scheduler.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The retry delays of a message the mail server did not take: doubled per attempt, capped. */
class NotifierBackOffTest {

    @Test
    void delaysDoubleUpToTheMaximum() {
        Notifier notifier = new Notifier(
                null,
                null,
                null,
                null,
                null,
                "f@x",
                Duration.ofSeconds(2),
                Duration.ofSeconds(30),
                Duration.ofMinutes(5),
                20);
        assertThat(notifier.backOff(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(notifier.backOff(2)).isEqualTo(Duration.ofSeconds(60));
        assertThat(notifier.backOff(4)).isEqualTo(Duration.ofSeconds(240));
        assertThat(notifier.backOff(5)).isEqualTo(Duration.ofMinutes(5));
        assertThat(notifier.backOff(19)).isEqualTo(Duration.ofMinutes(5));
    }
}
