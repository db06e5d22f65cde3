package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link TimerScenarios} on a real PostgreSQL, the production database (Quartz's clustered job
 * store with its PostgreSQL delegate, the service's rows and Quartz's in one database of this
 * class's own). The context is closed after the class, before the JVM's shared PostgreSQL stops.
 */
@DirtiesContext
class TimerPostgresTest extends TimerScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE = TransferFixture.on("timer", TestDatabase.POSTGRESQL);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
    }

    TimerPostgresTest() {
        super(FIXTURE);
    }
}
