package org.ferry.mover.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent-relay messages and the agent's status file carry text in any script, unchanged. */
class ConnectProtocolTest {

    static final String DN = "/O=Grid/OU=Ferry/CN=Łukasz Wójcik 李小龍";
    static final String DIRECTORY = "données|rw|/home/łukasz/データ";

    @Test
    void aMessageCarriesTextBeyondLatin1Unchanged() throws Exception {
        Properties sent = new Properties();
        sent.setProperty(ConnectProtocol.GRIDMAP, DN + "\n/O=Grid/CN=plain");
        sent.setProperty(ConnectProtocol.DIRECTORY_PREFIX + 1, DIRECTORY);
        byte[] bytes = ConnectProtocol.bytes(sent);

        Properties received = ConnectProtocol.read(new ByteArrayInputStream(bytes));

        assertThat(received).isEqualTo(sent);
        assertThat(new String(bytes, StandardCharsets.US_ASCII))
                .as("no date comment, keys sorted")
                .startsWith(ConnectProtocol.DIRECTORY_PREFIX + 1 + "=")
                .doesNotContain("#");
    }

    @Test
    void theStatusFileKeepsAnErrorNamingAPathInAnyScript(@TempDir Path dir) throws Exception {
        AgentHome home = new AgentHome(dir);
        Properties status = new Properties();
        status.setProperty("error", "shared directory /home/łukasz/データ does not exist");

        home.writeStatus(status);

        assertThat(home.readStatus()).isEqualTo(status);
        assertThat(Files.readString(home.status(), StandardCharsets.ISO_8859_1)).doesNotContain("?");
    }
}
