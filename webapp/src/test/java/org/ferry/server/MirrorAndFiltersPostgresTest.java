package org.ferry.server;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link MirrorAndFiltersScenarios} on a real PostgreSQL, the production database (a database of
 * this class's own). The context is closed after the class, before the JVM's shared PostgreSQL
 * stops.
 */
@DirtiesContext
class MirrorAndFiltersPostgresTest extends MirrorAndFiltersScenarios {

    @RegisterExtension
    static final TransferFixture FIXTURE = TransferFixture.on("mirror", TestDatabase.POSTGRESQL);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
    }

    MirrorAndFiltersPostgresTest() {
        super(FIXTURE);
    }
}
