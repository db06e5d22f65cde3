package org.ferry.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the API token: {@code FERRY_TOKEN} when set, else the first line of
 * {@code $FERRY_HOME/token} ({@code ~/.ferry/token} by default), the file a local ferry-server
 * writes so that the CLI on the same machine works without setup.
 */
public final class TokenSource {
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
     * @return the token, or null when neither the variable nor the file gives one
     * @throws UncheckedIOException when the token file exists but cannot be read
     */
    public String token() {
        String fromEnv = environment.get("FERRY_TOKEN");
        if (fromEnv != null) {
            return fromEnv.trim();
        }
        Path file = tokenFile();
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            String content = Files.readString(file, StandardCharsets.UTF_8).strip();
            // Only the first line: the file may be edited by hand and gain trailing notes.
            String first = content.lines().findFirst().orElse("").strip();
            return first.isEmpty() ? null : first;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the token file " + file, e);
        }
    }

    /**
     * Where the token file is looked for.
     *
     * @return {@code $FERRY_HOME/token}
     */
    public Path tokenFile() {
        return environment.ferryHome().resolve("token");
    }
}
