package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link NotificationEmailScenarios} on a real PostgreSQL, the production database (the outbox,
 * its claims and the events in a database of this class's own). The context is closed after the
 * class, before the JVM's shared PostgreSQL stops.
 */
@DirtiesContext
class NotificationEmailPostgresTest extends NotificationEmailScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE =
            TransferFixture.on("mail", TestDatabase.POSTGRESQL).withThrottledSiteA(SLOW_BYTES_PER_SECOND);

    @RegisterExtension
    static final TestSmtp SMTP = new TestSmtp();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
        SMTP.register(registry);
    }

    NotificationEmailPostgresTest() {
        super(FIXTURE, SMTP);
    }
}
