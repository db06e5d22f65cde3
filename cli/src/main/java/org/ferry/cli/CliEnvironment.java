package org.ferry.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/**
 * What the CLI reads from the machine it runs on, gathered in one place so tests can pass a
 * fake machine instead of the real one (no test depends on the developer's environment).
 *
 * @param env the environment variables (never null; read instead of {@link System#getenv()})
 * @param userHome the user's home directory, where {@code ~/.ferry} lives by default
 * @param stdin standard input, read by {@code --password-stdin}
 * @param consolePresent whether standard output is an interactive terminal
 *     ({@code System.console() != null}); progress bars are drawn only then
 * @param localFiles whether the commands may read and write files of the machine they run on
 *     ({@code --batch FILE}, proxy files, {@code ferry login}'s token file); false when they run
 *     for a user of ferry-server's SSH port, inside the server (standard input stands in for files;
 *     {@code --api} is refused too: the commands call only the API this environment names)
 */
public record CliEnvironment(
        Map<String, String> env, Path userHome, InputStream stdin, boolean consolePresent, boolean localFiles) {

    /** Compact constructor: copies {@code env} so later changes by the caller are not seen. */
    public CliEnvironment {
        env = Map.copyOf(env);
    }

    /**
     * An environment on the user's own machine (local files allowed).
     *
     * @param env the environment variables
     * @param userHome the user's home directory
     * @param stdin standard input
     * @param consolePresent whether standard output is an interactive terminal
     */
    public CliEnvironment(Map<String, String> env, Path userHome, InputStream stdin, boolean consolePresent) {
        this(env, userHome, stdin, consolePresent, true);
    }

    /**
     * The environment of a command run for a remote user (ferry-server's SSH port): no local
     * files, no terminal, the API and token given.
     *
     * @param apiUrl the API's base URL
     * @param token the bearer token the commands send
     * @param stdin the remote user's standard input
     * @return the environment
     */
    public static CliEnvironment remote(String apiUrl, String token, InputStream stdin) {
        return new CliEnvironment(
                Map.of("FERRY_API", apiUrl, "FERRY_TOKEN", token), Path.of("/nonexistent"), stdin, false, false);
    }

    /**
     * A file named on the command line, if this environment may read local files.
     *
     * @param name the file's name as given
     * @param commandLine the command that reads it (for the usage error)
     * @return the path
     * @throws CommandLine.ParameterException (exit code 2) when local files are not allowed here
     */
    public Path localFile(String name, CommandLine commandLine) {
        if (!localFiles) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    "files of the server cannot be read over SSH: give - and send '" + name
                            + "' on standard input instead");
        }
        return Path.of(name);
    }

    /**
     * The environment of the running JVM.
     *
     * @return the real environment, home directory, stdin and console state
     */
    public static CliEnvironment system() {
        return new CliEnvironment(
                System.getenv(), Path.of(System.getProperty("user.home")), System.in, System.console() != null);
    }

    /**
     * One environment variable.
     *
     * @param name the variable's name
     * @return its value, or null when unset or blank (a blank value counts as unset)
     */
    public String get(String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : value;
    }

    /**
     * Whether progress may be drawn in place with carriage returns: a console is attached and the
     * {@code CI} variable is not set to a true value (CI logs show each {@code \r} redraw as a line).
     *
     * @return true for an interactive terminal
     */
    public boolean interactive() {
        String ci = get("CI");
        boolean inCi = ci != null && !ci.equalsIgnoreCase("false") && !ci.equals("0");
        return consolePresent && !inCi;
    }

    /**
     * Ferry's per-user directory: {@code $FERRY_HOME}, else {@code ~/.ferry}.
     *
     * @return the directory (it may not exist)
     */
    public Path ferryHome() {
        String home = get("FERRY_HOME");
        return home != null ? Path.of(home) : userHome.resolve(".ferry");
    }
}
