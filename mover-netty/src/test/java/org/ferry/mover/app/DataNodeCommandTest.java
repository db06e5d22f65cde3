package org.ferry.mover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage errors of {@code ferry-gridftp data-node} and of the head node options exit with 2. */
class DataNodeCommandTest {

    @TempDir
    Path tmp;

    private static int run(StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new FerryGridFtpMain());
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    @Test
    void badSecretsRootsAndDataNodeAddressesAreUsageErrors() throws Exception {
        Path shortSecret = Files.writeString(tmp.resolve("short"), "too short\n");
        Path secret = Files.writeString(tmp.resolve("secret"), "long-enough-secret-for-the-link\n");
        StringWriter err = new StringWriter();
        assertThat(run(err, "data-node", "--root", tmp.toString())).isEqualTo(2); // --secret-file missing
        assertThat(run(err, "data-node", "--root", tmp.toString(), "--secret-file", shortSecret.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("at least 16 bytes");
        assertThat(run(err, "data-node", "--root", tmp.resolve("none").toString(), "--secret-file", secret.toString()))
                .isEqualTo(2);
        assertThat(run(err, "--root", tmp.toString(), "--anonymous", "--data-node", "127.0.0.1:7001"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--data-node-secret");
        assertThat(run(
                        err,
                        "--root",
                        tmp.toString(),
                        "--anonymous",
                        "--data-node",
                        "nonsense",
                        "--data-node-secret",
                        secret.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("bad --data-node nonsense");
    }
}
