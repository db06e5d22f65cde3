package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link MirrorAndFiltersScenarios} on H2, the embedded default. */
class MirrorAndFiltersTest extends MirrorAndFiltersScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE = TransferFixture.on("mirror", TestDatabase.H2);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
    }

    MirrorAndFiltersTest() {
        super(FIXTURE);
    }
}
