package org.ferry.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/** Runs the CLI in the JVM over a fake environment and captures its output. */
final class CliRunner {
    record Result(int exitCode, String out, String err) {}

    private CliRunner() {}

    static Result run(Map<String, String> env, Path home, String stdin, String... args) {
        return run(
                new CliEnvironment(env, home, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), false),
                args);
    }

    static Result run(CliEnvironment environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new FerryCli(environment));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Result(exitCode, out.toString(), err.toString());
    }
}
