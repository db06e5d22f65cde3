package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The database a test class runs the service on: H2 in the test's FERRY_HOME (the embedded
 * default of {@code application.properties}, left as it is) or a database of the class's own on
 * the JVM's {@link SharedPostgres} server, the production database.
 */
enum TestDatabase {
    H2("H2", "jdbc:h2:", "select count(*) from information_schema.sessions where blocker_id is not null"),
    POSTGRESQL(
            "PostgreSQL",
            "jdbc:postgresql:",
            "select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");

    private final String productName;
    private final String urlPrefix;
    private final String lockWaitersQuery;

    TestDatabase(String productName, String urlPrefix, String lockWaitersQuery) {
        this.productName = productName;
        this.urlPrefix = urlPrefix;
        this.lockWaitersQuery = lockWaitersQuery;
    }

    /** @return SQL counting the sessions that wait for a lock another session holds */
    String lockWaitersQuery() {
        return lockWaitersQuery;
    }

    /**
     * Points {@code spring.datasource.*} at this database (H2: nothing to add).
     *
     * @param registry the test class's dynamic properties
     * @param jdbcUrl the PostgreSQL database's URL, asked for only when the context starts
     */
    void register(DynamicPropertyRegistry registry, Supplier<String> jdbcUrl) {
        if (this == POSTGRESQL) {
            registry.add("spring.datasource.url", jdbcUrl::get);
            registry.add("spring.datasource.username", () -> "postgres");
            registry.add("spring.datasource.password", () -> "");
        }
    }

    /**
     * Fails unless the service's connections go to this database: its JDBC URL and the product
     * the driver reports.
     *
     * @param dataSource the service's data source
     */
    void assertUsedBy(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            assertThat(metaData.getURL()).as("JDBC URL").startsWith(urlPrefix);
            assertThat(metaData.getDatabaseProductName()).as("database").isEqualTo(productName);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
