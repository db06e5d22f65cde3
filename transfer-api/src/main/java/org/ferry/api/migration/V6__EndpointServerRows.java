package org.ferry.api.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.ferry.mover.client.GridFtpUrl;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.stereotype.Component;

/**
 * Gives every endpoint of an earlier version its server row: the one its {@code url} names
 * (parsing a URL is not portable SQL). Version 13.5 in the numbering before issue 30.
 */
@Component
public class V6__EndpointServerRows extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        Connection connection = context.getConnection();
        Map<UUID, String> urls = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT id, url FROM endpoint");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                urls.put(rows.getObject(1, UUID.class), rows.getString(2));
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO endpoint_server (endpoint_id, position, scheme, hostname, port) VALUES (?, 0, ?, ?, ?)")) {
            for (Map.Entry<UUID, String> row : urls.entrySet()) {
                GridFtpUrl url = GridFtpUrl.parse(row.getValue());
                insert.setObject(1, row.getKey());
                insert.setString(2, url.scheme());
                insert.setString(3, url.host());
                insert.setInt(4, url.port());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
