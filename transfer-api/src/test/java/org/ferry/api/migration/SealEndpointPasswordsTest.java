package org.ferry.api.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Base64;
import java.util.UUID;
import org.ferry.api.credential.EndpointSecrets;
import org.ferry.gsi.store.CredentialCipher;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * An installation of an earlier version stored endpoint passwords in clear: upgrading seals each
 * one under the configured key and then drops the clear column (both V13_2) and gives every endpoint
 * the server row its url names (V13_5), on a real H2 database migrated first to version 1 as such
 * an installation was.
 */
class SealEndpointPasswordsTest {

    @Test
    void clearPasswordsOfAnEarlierVersionEndSealedAndTheClearColumnGoes() throws Exception {
        CredentialCipher cipher =
                CredentialCipher.fromBase64(Base64.getEncoder().encodeToString(new byte[32]));
        String url = "jdbc:h2:mem:upgrade-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        Flyway.configure()
                .dataSource(url, "sa", "")
                .locations("classpath:db/migration")
                .target("1")
                .load()
                .migrate();
        UUID withPassword = UUID.randomUUID();
        UUID anonymous = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, "sa", "");
                PreparedStatement insert = c.prepareStatement("INSERT INTO endpoint (id, owner_name, canonical_name,"
                        + " display_name, url, username, password, created_time) VALUES (?, 'admin', ?, ?, ?, ?, ?,"
                        + " CURRENT_TIMESTAMP)")) {
            insert.setObject(1, withPassword);
            insert.setString(2, "admin#a");
            insert.setString(3, "a");
            insert.setString(4, "ftp://127.0.0.1:2811");
            insert.setString(5, "alice");
            insert.setString(6, "s3cret");
            insert.executeUpdate();
            insert.setObject(1, anonymous);
            insert.setString(2, "admin#b");
            insert.setString(3, "b");
            insert.setString(5, "anonymous");
            insert.setString(6, "");
            insert.executeUpdate();
        }
        Flyway.configure()
                .dataSource(url, "sa", "")
                .locations("classpath:db/migration")
                .javaMigrations(new V4__SealEndpointPasswords(cipher), new V6__EndpointServerRows())
                .load()
                .migrate();
        try (Connection c = DriverManager.getConnection(url, "sa", "");
                ResultSet rows = c.createStatement()
                        .executeQuery("SELECT id, password_sealed FROM endpoint ORDER BY canonical_name")) {
            assertThat(rows.next()).isTrue();
            String sealed = rows.getString(2);
            assertThat(sealed).startsWith("fc1:").doesNotContain("s3cret");
            assertThat(cipher.openString(sealed, EndpointSecrets.passwordContext(withPassword.toString())))
                    .isEqualTo("s3cret");
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(2)).isNull();
            try (ResultSet columns = c.getMetaData().getColumns(null, null, "ENDPOINT", "PASSWORD")) {
                assertThat(columns.next()).as("the clear-text column is gone").isFalse();
            }
            // and every endpoint has the server row its url names (V13_5)
            try (ResultSet servers = c.createStatement()
                    .executeQuery(
                            "SELECT scheme, hostname, port, position FROM endpoint_server ORDER BY endpoint_id")) {
                int count = 0;
                while (servers.next()) {
                    count++;
                    assertThat(servers.getString(1)).isEqualTo("ftp");
                    assertThat(servers.getString(2)).isEqualTo("127.0.0.1");
                    assertThat(servers.getInt(3)).isEqualTo(2811);
                    assertThat(servers.getInt(4)).isZero();
                }
                assertThat(count).isEqualTo(2);
            }
        }
    }
}
