package org.ferry.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * PostgreSQL 15 for the tests: Testcontainers' {@link PostgreSQLContainer} on the image
 * {@link ContainerEngine} chooses ({@code ferry-test/postgres:15} built here, or {@code postgres:15}),
 * published on 127.0.0.1 at a port that survives a restart of the container, connections trusted
 * (the tests' URLs carry no password).
 */
public final class PostgresContainers {

    /** The superuser; connections from any host are trusted (no password asked). */
    public static final String USER = "postgres";

    private static final Pattern DATABASE = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    private static PostgreSQLContainer shared;

    private PostgresContainers() {}

    /**
     * One server for the whole test JVM, started by the first caller and removed by Testcontainers
     * when the JVM ends: for tests that need a database, not a server to fault.
     *
     * @return the started server
     */
    public static synchronized PostgreSQLContainer shared() {
        if (shared == null) {
            PostgreSQLContainer started = create();
            started.start();
            shared = started;
        }
        return shared;
    }

    /**
     * Creates a database.
     *
     * @param postgres a started server
     * @param name the database's name: lower case letters, digits and {@code _}, a letter first
     * @return its JDBC URL ({@link #jdbcUrl})
     * @throws IllegalArgumentException if the name is not a plain identifier
     * @throws IllegalStateException if the database cannot be made (it exists, ...)
     */
    public static String createDatabase(PostgreSQLContainer postgres, String name) {
        if (!DATABASE.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        try (Connection connection = DriverManager.getConnection(jdbcUrl(postgres, "postgres"));
                Statement statement = connection.createStatement()) {
            statement.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return jdbcUrl(postgres, name);
    }

    /**
     * @return a PostgreSQL container, not started, with a database {@code ferry}
     * @throws IllegalStateException if the local images cannot be built
     */
    public static PostgreSQLContainer create() {
        return ContainerEngine.onLoopback(
                new PostgreSQLContainer(ContainerEngine.image("ferry-test/postgres:15", "postgres:15"))
                        .withDatabaseName("ferry")
                        .withUsername(USER)
                        .withEnv("POSTGRES_HOST_AUTH_METHOD", "trust"),
                PostgreSQLContainer.POSTGRESQL_PORT);
    }

    /**
     * @param postgres a started container
     * @param database a database on it
     * @return its JDBC URL on 127.0.0.1, with the user, batched inserts rewritten
     */
    public static String jdbcUrl(PostgreSQLContainer postgres, String database) {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT) + "/"
                + database + "?user=" + USER + "&reWriteBatchedInserts=true";
    }
}
