package org.ferry.server;

import org.ferry.testing.PostgresContainers;

/**
 * One real PostgreSQL server for the whole test JVM, in a container ({@link
 * PostgresContainers#shared()}): the first test class that asks starts it, each test class gets a
 * database of its own on it. One server for all classes keeps the second database run cheap (a
 * database is made in milliseconds, a server in seconds).
 */
final class SharedPostgres {

    private SharedPostgres() {}

    /**
     * Creates a database on the shared server (starting the server first if no class asked before).
     *
     * @param name the database's name: lower case letters, digits and {@code _}, a letter first
     * @return its JDBC URL (user {@code postgres}, trusted)
     * @throws IllegalArgumentException if the name is not a plain identifier
     * @throws IllegalStateException if the server cannot start or the database cannot be made
     */
    static String createDatabase(String name) {
        return PostgresContainers.createDatabase(PostgresContainers.shared(), name);
    }
}
