package org.ferry.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the API token, in this order: {@code FERRY_TOKEN}; the first line of
 * {@code $FERRY_HOME/cli-token} ({@code ferry login} writes it); the first line of
 * {@code $FERRY_HOME/token} (the first-start admin token a local ferry-server writes, so that the
 * CLI on the server's machine works without setup). {@code FERRY_HOME} defaults to
 * {@code ~/.ferry}.
 */
public final class TokenSource {
    /** The file {@code ferry login} writes, in {@code FERRY_HOME}. */
    public static final String LOGIN_FILE = "cli-token";
    /** The file a local ferry-server writes on its first start, in {@code FERRY_HOME}. */
    public static final String SERVER_FILE = "token";

    private final CliEnvironment environment;

    /**
     * Creates the source.
     *
     * @param environment where the variables and home directory come from
     */
    public TokenSource(CliEnvironment environment) {
        this.environment = environment;
    }

    /**
     * The token to send.
     *
     * @return the token, or null when neither the variable nor a file gives one
     * @throws UncheckedIOException when a token file exists but cannot be read
     */
    public String token() {
        String fromEnv = environment.get("FERRY_TOKEN");
        if (fromEnv != null) {
            return fromEnv.trim();
        }
        for (Path file : new Path[] {loginFile(), tokenFile()}) {
            String token = firstLine(file);
            if (token != null) {
                return token;
            }
        }
        return null;
    }

    /** @return where the token comes from, for {@code ferry whoami}: the variable or a file */
    public String origin() {
        if (environment.get("FERRY_TOKEN") != null) {
            return "FERRY_TOKEN";
        }
        if (firstLine(loginFile()) != null) {
            return loginFile().toString();
        }
        if (firstLine(tokenFile()) != null) {
            return tokenFile().toString();
        }
        return "none";
    }

    private static String firstLine(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8).strip();
            // Only the first line: ferry login keeps the token's id on the second.
            String first = content.lines().findFirst().orElse("").strip();
            return first.isEmpty() ? null : first;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file, e);
        }
    }

    /** @return {@code $FERRY_HOME/cli-token}, written by {@code ferry login} */
    public Path loginFile() {
        return environment.ferryHome().resolve(LOGIN_FILE);
    }

    /** @return {@code $FERRY_HOME/token}, written by a local ferry-server on its first start */
    public Path tokenFile() {
        return environment.ferryHome().resolve(SERVER_FILE);
    }
}
