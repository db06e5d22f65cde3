package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link NotificationEmailScenarios} on H2, the embedded default. */
class NotificationEmailTest extends NotificationEmailScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE =
            TransferFixture.on("mail", TestDatabase.H2).withThrottledSiteA(SLOW_BYTES_PER_SECOND);

    @RegisterExtension
    static final TestSmtp SMTP = new TestSmtp();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
        SMTP.register(registry);
    }

    NotificationEmailTest() {
        super(FIXTURE, SMTP);
    }
}
