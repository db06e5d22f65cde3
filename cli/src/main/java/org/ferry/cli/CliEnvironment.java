package org.ferry.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the CLI reads from the machine it runs on, gathered in one place so tests can pass a
 * fake machine instead of the real one (no test depends on the developer's environment).
 *
 * @param env the environment variables (never null; read instead of {@link System#getenv()})
 * @param userHome the user's home directory, where {@code ~/.ferry} lives by default
 * @param stdin standard input, read by {@code --password-stdin}
 * @param consolePresent whether standard output is an interactive terminal
 *     ({@code System.console() != null}); progress bars are drawn only then
 */
public record CliEnvironment(Map<String, String> env, Path userHome, InputStream stdin, boolean consolePresent) {

    /** Compact constructor: copies {@code env} so later changes by the caller are not seen. */
    public CliEnvironment {
        env = Map.copyOf(env);
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
