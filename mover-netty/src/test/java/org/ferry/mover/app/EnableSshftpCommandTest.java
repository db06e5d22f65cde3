package org.ferry.mover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ferry-gridftp enable-sshftp} writes the remote command of sshftp, and {@code SSH_CONNECTION}'s parsing. */
class EnableSshftpCommandTest {

    @TempDir
    Path tmp;

    private int run(StringWriter err, String... args) {
        CommandLine cli = new CommandLine(new FerryGridFtpMain(java.util.Map.of()));
        cli.setErr(new PrintWriter(err, true));
        cli.setOut(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    @Test
    void writesAnExecutableScriptThatExecsTheServerInSshMode() throws Exception {
        Path out = tmp.resolve("globus/sshftp");
        StringWriter err = new StringWriter();
        assertThat(run(err, "enable-sshftp", "--out", out.toString(), "--", "--popen-allow", "tar:/bin/tar", "a b"))
                .as(err.toString())
                .isZero();
        String script = Files.readString(out);
        assertThat(script).startsWith("#!/bin/sh\n");
        assertThat(script.lines().filter(l -> l.startsWith("exec ")).findFirst().orElseThrow())
                .endsWith(" --ssh --popen-allow tar:/bin/tar 'a b'");
        assertThat(Files.getPosixFilePermissions(out)).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
        // an existing file stays unless --force
        assertThat(run(err, "enable-sshftp", "--out", out.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("exists");
        assertThat(Files.readString(out)).isEqualTo(script);
        assertThat(run(new StringWriter(), "enable-sshftp", "--out", out.toString(), "--force"))
                .isZero();
        assertThat(Files.readString(out)).doesNotContain("popen");
    }

    @Test
    void quotesWhatTheShellWouldReadOtherwise() {
        assertThat(EnableSshftpCommand.quote("/opt/ferry/bin/ferry-gridftp")).isEqualTo("/opt/ferry/bin/ferry-gridftp");
        assertThat(EnableSshftpCommand.quote("it's $(x)")).isEqualTo("'it'\\''s $(x)'");
        assertThat(EnableSshftpCommand.script(List.of("/x y/z"), List.of())).contains("exec '/x y/z' --ssh\n");
    }

    @Test
    void sshConnectionGivesBothEnds() {
        Optional<SshConnection> connection = SshConnection.parse("10.0.0.5 51234 192.168.1.2 22");
        assertThat(connection).hasValueSatisfying(c -> {
            assertThat(c.client().getAddress().getHostAddress()).isEqualTo("10.0.0.5");
            assertThat(c.server().getAddress().getHostAddress()).isEqualTo("192.168.1.2");
            assertThat(c.server().getPort()).isEqualTo(22);
        });
        assertThat(SshConnection.parse("::1 5 ::1 22")).isPresent();
        assertThat(SshConnection.parse(null)).isEmpty();
        assertThat(SshConnection.parse("garbage")).isEmpty();
        assertThat(SshConnection.parse("example.org 1 example.org 22")).isEmpty(); // never a name lookup
    }
}
