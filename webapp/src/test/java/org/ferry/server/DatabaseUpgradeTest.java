package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.ferry.api.migration.LegacyVersions;
import org.ferry.api.migration.V4__SealEndpointPasswords;
import org.ferry.api.migration.V6__EndpointServerRows;
import org.ferry.gsi.store.CredentialCipher;
import org.ferry.testing.ContainerEngine;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The migrations' renumbering (issue 30: {@code V12_1} ... {@code V15_14} became one ordered
 * sequence {@code V1} ... {@code V13}) keeps installations upgradable: a database made by the
 * numbering by issue, as the build before the renumbering made it (the same scripts under their
 * old names, the two Java migrations under their old class names, out of order allowed), with a
 * task and an endpoint in it, is migrated by this build with out-of-order off: nothing runs again,
 * nothing is pending, every history row has its new version, the rows are kept, and the schema is
 * the one a new install gets. On H2 (the embedded default) and on PostgreSQL.
 */
class DatabaseUpgradeTest {

    /** The numbering by issue: each script's name before the renumbering, by its name now. */
    private static final Map<String, String> OLD_NAMES = Map.ofEntries(
            Map.entry("V1__transfer_service.sql", "V1__transfer_service.sql"),
            Map.entry("V2__durable_task_state.sql", "V12_1__durable_task_state.sql"),
            Map.entry("V3__gsi_endpoints_and_activation.sql", "V13_1__gsi_endpoints_and_activation.sql"),
            Map.entry("V5__endpoint_servers.sql", "V13_4__endpoint_servers.sql"),
            Map.entry("V7__endpoint_fields_delete_tasks.sql", "V14_1__endpoint_fields_delete_tasks.sql"),
            Map.entry("V8__accounts_roles_access_tokens.sql", "V14_2__accounts_roles_access_tokens.sql"),
            Map.entry("V9__mirror_and_filters.sql", "V15_1__mirror_and_filters.sql"),
            Map.entry("V11__timers.sql", "V15_3__timers.sql"),
            Map.entry("V12__account_email_and_notifications.sql", "V15_10__account_email_and_notifications.sql"),
            Map.entry("V13__preserve_timestamp.sql", "V15_14__preserve_timestamp.sql"));

    private static final CredentialCipher KEY =
            CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[32]));

    /**
     * Migrations added after the renumbering ended at V13: V14 (SSH keys), V15 (personal
     * endpoints), V16 (fail_on_quota_errors), V17 (checksum_algorithm, external_checksum), V18
     * (multicast's further destinations), V19 (the optimizer), V20 (verify_tree_digest), V21
     * (multicast's progress per destination), V22 (transfer_file without its chunk_id index).
     */
    private static final int MIGRATIONS_AFTER_RENUMBERING = 9;

    /** {@code V13_2} as the build before the renumbering named it. */
    static class V13_2__SealEndpointPasswords extends V4__SealEndpointPasswords {
        V13_2__SealEndpointPasswords() {
            super(KEY);
        }
    }

    /** {@code V13_5} as the build before the renumbering named it. */
    static class V13_5__EndpointServerRows extends V6__EndpointServerRows {}

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aDatabaseOfTheNumberingByIssueUpgradesInPlace(TestDatabase database) throws Exception {
        if (database == TestDatabase.POSTGRESQL) {
            ContainerEngine.require(); // PostgreSQL runs in a container
        }
        String vendor = database == TestDatabase.H2 ? "h2" : "postgresql";
        String legacyUrl = url(database, "upgrade_legacy");
        Path legacy = legacyScripts(vendor);
        Flyway.configure()
                .dataSource(legacyUrl, user(database), "")
                .locations("filesystem:" + legacy.resolve("migration"), "filesystem:" + legacy.resolve("vendor"))
                .javaMigrations(new V13_2__SealEndpointPasswords(), new V13_5__EndpointServerRows())
                .outOfOrder(true)
                .load()
                .migrate();
        UUID task = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(legacyUrl, user(database), "");
                Statement s = c.createStatement()) {
            s.executeUpdate("insert into task (id, submission_id, owner_name, type, status, request_time,"
                    + " source_endpoint_id, source_endpoint, verify_checksum, files, directories, files_transferred,"
                    + " files_skipped, bytes_transferred, faults, subtasks_total, subtasks_succeeded, subtasks_failed)"
                    + " values ('" + task + "', 'sub', 'alice', 'TRANSFER', 'SUCCEEDED', CURRENT_TIMESTAMP, '"
                    + UUID.randomUUID() + "', 'alice#a', false, 1, 0, 1, 0, 7, 0, 1, 1, 0)");
            assertThat(versions(c)).contains("12.1", "13.2", "15.14");
        }

        MigrateResult upgraded = current(legacyUrl, database, vendor).migrate();

        // nothing of the renumbered sequence runs again; only what came after it (V14 ssh keys,
        // V15 personal endpoints, V16 fail_on_quota_errors, V17 checksum algorithms, V18 multicast,
        // V19 optimizer, V20 tree digests, V21 multicast progress, V22 no chunk_id index)
        assertThat(upgraded.migrationsExecuted).as("nothing runs again").isEqualTo(MIGRATIONS_AFTER_RENUMBERING);
        Flyway after = current(legacyUrl, database, vendor);
        after.validate();
        assertThat(after.info().pending()).isEmpty();
        try (Connection c = DriverManager.getConnection(legacyUrl, user(database), "")) {
            assertThat(versions(c))
                    .containsExactlyInAnyOrder(
                            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17",
                            "18", "19", "20", "21", "22");
            try (Statement s = c.createStatement();
                    ResultSet row = s.executeQuery("select bytes_transferred from task where id = '" + task + "'")) {
                assertThat(row.next()).as("the task kept").isTrue();
                assertThat(row.getLong(1)).isEqualTo(7);
            }
        }

        // the schema is the one a new install gets
        String freshUrl = url(database, "upgrade_fresh");
        Flyway fresh = current(freshUrl, database, vendor);
        assertThat(fresh.migrate().migrationsExecuted).isEqualTo(13 + MIGRATIONS_AFTER_RENUMBERING);
        assertThat(fresh.info().applied())
                .extracting(MigrationInfo::getVersion)
                .extracting(Object::toString)
                .containsExactly(
                        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17",
                        "18", "19", "20", "21", "22");
        assertThat(schema(legacyUrl, database)).isEqualTo(schema(freshUrl, database));
    }

    /** This build's migrations, with out-of-order off, as the server runs them. */
    private static Flyway current(String url, TestDatabase database, String vendor) {
        return Flyway.configure()
                .dataSource(url, user(database), "")
                .locations("classpath:db/migration", "classpath:db/vendor/" + vendor)
                .javaMigrations(new V4__SealEndpointPasswords(KEY), new V6__EndpointServerRows())
                .callbacks(new LegacyVersions())
                .outOfOrder(false)
                .load();
    }

    private static String url(TestDatabase database, String name) {
        String unique = name + "_" + UUID.randomUUID().toString().substring(0, 8);
        return database == TestDatabase.H2
                ? "jdbc:h2:mem:" + unique + ";DB_CLOSE_DELAY=-1"
                : SharedPostgres.createDatabase(unique);
    }

    private static String user(TestDatabase database) {
        return database == TestDatabase.H2 ? "sa" : "postgres";
    }

    /** This build's scripts under their names before the renumbering, in a directory of their own. */
    private static Path legacyScripts(String vendor) throws IOException {
        Path root = Files.createTempDirectory("ferry-legacy-migrations");
        Path migration = Files.createDirectories(root.resolve("migration"));
        for (Map.Entry<String, String> script : OLD_NAMES.entrySet()) {
            copy("/db/migration/" + script.getKey(), migration.resolve(script.getValue()));
        }
        copy(
                "/db/vendor/" + vendor + "/V10__quartz_tables.sql",
                Files.createDirectories(root.resolve("vendor")).resolve("V15_2__quartz_tables.sql"));
        return root;
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = DatabaseUpgradeTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Files.copy(in, to);
        }
    }

    private static List<String> versions(Connection c) throws SQLException {
        List<String> versions = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rows = s.executeQuery(
                        "select \"version\" from \"flyway_schema_history\" where \"version\" is not null")) {
            while (rows.next()) {
                versions.add(rows.getString(1));
            }
        }
        return versions;
    }

    /** Every column of the schema's tables (but Flyway's): table, column, type, nullability. */
    private static TreeSet<String> schema(String url, TestDatabase database) throws SQLException {
        TreeSet<String> columns = new TreeSet<>();
        try (Connection c = DriverManager.getConnection(url, user(database), "");
                ResultSet rows = c.getMetaData().getColumns(null, c.getSchema(), "%", "%")) {
            while (rows.next()) {
                String table = rows.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
                if (table.startsWith("flyway")) {
                    continue;
                }
                columns.add(table + "." + rows.getString("COLUMN_NAME").toLowerCase(Locale.ROOT) + " "
                        + rows.getString("TYPE_NAME") + " " + rows.getString("IS_NULLABLE"));
            }
        }
        return columns;
    }
}
