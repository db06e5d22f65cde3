package org.ferry.mover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class FerryGridFtpMainTest {

    @TempDir
    Path tmp;

    private static int run(StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new FerryGridFtpMain());
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    @Test
    void usageErrorsExitWith2() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "--anonymous")).isEqualTo(2);
        assertThat(err.toString()).contains("--root is required");
        assertThat(run(err, "--root", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--anonymous");
        assertThat(run(err, "--root", tmp.resolve("missing").toString(), "--anonymous")).isEqualTo(2);
        assertThat(run(err, "--bogus")).isEqualTo(2);
    }
}
