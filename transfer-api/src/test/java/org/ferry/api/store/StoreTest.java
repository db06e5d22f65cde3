package org.ferry.api.store;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;

/**
 * A {@code @JdbcTest} of the task store: an in-memory H2 database made by Ferry's own Flyway
 * migrations, the two store beans, and a transaction per test (rolled back after it).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@JdbcTest(
        properties = {
            "spring.flyway.locations=classpath:db/migration,classpath:db/vendor/{vendor}",
            "spring.flyway.out-of-order=false"
        })
@Import({TaskStore.class, FileStore.class})
@interface StoreTest {}
