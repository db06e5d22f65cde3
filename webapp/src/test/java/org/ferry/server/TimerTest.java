package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link TimerScenarios} on H2, the embedded default (Quartz's tables in the same H2 database). */
class TimerTest extends TimerScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE = TransferFixture.on("timer", TestDatabase.H2);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
    }

    TimerTest() {
        super(FIXTURE);
    }
}
