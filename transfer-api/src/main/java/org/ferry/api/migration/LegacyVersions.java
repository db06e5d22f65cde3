package org.ferry.api.migration;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The upgrade path from the numbering by issue ({@code V12_1} ... {@code V15_14}) to one ordered
 * sequence ({@code V1} ... {@code V13}, issue 30): before Flyway validates or migrates, a
 * database whose history holds the old versions has them renamed to the new ones, in one
 * transaction. The scripts kept their contents, so their checksums stay and Flyway finds every
 * applied migration where it expects it. A new database, or one already renamed, is left alone.
 *
 * <p>A database made by a build in which a later-numbered migration landed before an earlier one
 * (the reason the old numbering needed {@code spring.flyway.out-of-order}) may miss an old
 * version below one it has; such a database is migrated once with
 * {@code --spring.flyway.out-of-order=true}. docs/configuration.md has the table.
 */
@Component
public class LegacyVersions implements Callback {

    private static final Logger log = LoggerFactory.getLogger(LegacyVersions.class);

    /** Old version to new version and script, in the order they were numbered. */
    static final Map<String, String[]> RENAMED = renamed();

    private static Map<String, String[]> renamed() {
        Map<String, String[]> renamed = new LinkedHashMap<>();
        renamed.put("12.1", new String[] {"2", "V2__durable_task_state.sql"});
        renamed.put("13.1", new String[] {"3", "V3__gsi_endpoints_and_activation.sql"});
        renamed.put("13.2", new String[] {"4", "org.ferry.api.migration.V4__SealEndpointPasswords"});
        renamed.put("13.4", new String[] {"5", "V5__endpoint_servers.sql"});
        renamed.put("13.5", new String[] {"6", "org.ferry.api.migration.V6__EndpointServerRows"});
        renamed.put("14.1", new String[] {"7", "V7__endpoint_fields_delete_tasks.sql"});
        renamed.put("14.2", new String[] {"8", "V8__accounts_roles_access_tokens.sql"});
        renamed.put("15.1", new String[] {"9", "V9__mirror_and_filters.sql"});
        renamed.put("15.2", new String[] {"10", "V10__quartz_tables.sql"});
        renamed.put("15.3", new String[] {"11", "V11__timers.sql"});
        renamed.put("15.10", new String[] {"12", "V12__account_email_and_notifications.sql"});
        renamed.put("15.14", new String[] {"13", "V13__preserve_timestamp.sql"});
        return Collections.unmodifiableMap(renamed);
    }

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_VALIDATE || event == Event.BEFORE_MIGRATE || event == Event.BEFORE_INFO;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return false;
    }

    @Override
    public void handle(Event event, Context context) {
        String table = context.getConfiguration().getTable();
        Connection connection = context.getConnection();
        try {
            if (!exists(connection, table) || !hasLegacyVersions(connection, table)) {
                return;
            }
            try (PreparedStatement rename = connection.prepareStatement(
                    "update \"" + table + "\" set \"version\" = ?, \"script\" = ? where \"version\" = ?")) {
                for (Map.Entry<String, String[]> old : RENAMED.entrySet()) {
                    rename.setString(1, old.getValue()[0]);
                    rename.setString(2, old.getValue()[1]);
                    rename.setString(3, old.getKey());
                    rename.addBatch();
                }
                rename.executeBatch();
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            log.info(
                    "Renamed the database's migrations to the one ordered sequence (V12_1 ... V15_14 became V2 ... V13)");
        } catch (SQLException e) {
            throw new FlywayException("Cannot rename the migrations of the numbering by issue: " + e.getMessage(), e);
        }
    }

    private static boolean exists(Connection connection, String table) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        for (String name : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            try (ResultSet tables = metaData.getTables(connection.getCatalog(), connection.getSchema(), name, null)) {
                if (tables.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasLegacyVersions(Connection connection, String table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("select count(*) from \"" + table
                        + "\" where \"version\" in ('12.1', '15.14', '15.10', '13.1')");
                ResultSet count = select.executeQuery()) {
            return count.next() && count.getInt(1) > 0;
        }
    }

    @Override
    public String getCallbackName() {
        return "ferry-legacy-versions";
    }
}
