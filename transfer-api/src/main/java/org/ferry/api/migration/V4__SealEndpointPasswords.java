package org.ferry.api.migration;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.gsi.store.CredentialCipher;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.springframework.stereotype.Component;

/**
 * Seals the clear-text passwords earlier versions stored ({@code endpoint.password}) into
 * {@code endpoint.password_sealed} with the configured key, then drops the clear column, in one
 * migration so that the column never goes before its passwords are sealed. A Spring bean, so that
 * Flyway runs it with the application's key; both contexts that migrate the database (the server
 * and {@code ferry-server user}) have it. Version 13.2 in the numbering before issue 30.
 */
@Component
public class V4__SealEndpointPasswords extends BaseJavaMigration {

    private final CredentialCipher cipher;

    /** @param cipher the application's credential key */
    public V4__SealEndpointPasswords(CredentialCipher cipher) {
        this.cipher = cipher;
    }

    @Override
    public void migrate(Context context) throws Exception {
        Connection connection = context.getConnection();
        Map<String, String> passwords = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement(
                        "SELECT id, password FROM endpoint WHERE password IS NOT NULL AND password <> ''");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                passwords.put(rows.getString(1), rows.getString(2));
            }
        }
        try (PreparedStatement update =
                connection.prepareStatement("UPDATE endpoint SET password_sealed = ? WHERE id = ?")) {
            for (Map.Entry<String, String> row : passwords.entrySet()) {
                update.setString(1, cipher.seal(row.getValue(), EndpointSecrets.passwordContext(row.getKey())));
                update.setObject(2, java.util.UUID.fromString(row.getKey()));
                update.addBatch();
            }
            update.executeBatch();
        }
        try (var drop = connection.createStatement()) {
            drop.execute("ALTER TABLE endpoint DROP COLUMN password");
        }
    }
}
