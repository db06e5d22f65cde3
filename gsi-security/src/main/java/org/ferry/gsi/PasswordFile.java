package org.ferry.gsi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * A clear-text login password file for the GridFTP server (the Ferry counterpart of
 * globus-gridftp-server's {@code -password-file}). Format, one entry per line:
 * <pre>
 * # comment
 * alice:$2y$10$....
 * </pre>
 * The hash is an OpenBSD bcrypt string ({@code $2a$}, {@code $2b$} or {@code $2y$}) as produced by
 * Bouncy Castle's {@link OpenBSDBCrypt}. Blank lines and lines starting with {@code #} are
 * ignored. Instances are immutable and thread-safe.
 */
public final class PasswordFile {

    /** bcrypt cost (log2 rounds) used by {@link #hash(char[])}. */
    public static final int DEFAULT_COST = 10;

    /** A valid hash of a random password, checked for unknown users so timing does not reveal names. */
    private static final String DUMMY_HASH = "$2y$10$" + "abcdefghijklmnopqrstuu" + "5ImN8q6UcU3QpN3ncTAOd4Qm3ud4M/.";

    private final Map<String, String> hashes;

    private PasswordFile(Map<String, String> hashes) {
        this.hashes = Map.copyOf(hashes);
    }

    /**
     * Reads and parses a password file (UTF-8).
     *
     * @param file the file
     * @return the parsed entries
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if a line is malformed (message names the line number)
     */
    public static PasswordFile load(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    /**
     * Parses password file lines.
     *
     * @param lines the lines, without terminators
     * @return the parsed entries; a later duplicate user replaces an earlier one
     * @throws IllegalArgumentException if a non-comment line lacks {@code user:hash} or the hash is not bcrypt
     */
    public static PasswordFile parse(List<String> lines) {
        Map<String, String> map = new LinkedHashMap<>();
        int number = 0;
        for (String raw : lines) {
            number++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || colon == line.length() - 1) {
                throw new IllegalArgumentException("password file line " + number + ": expected user:hash");
            }
            String hash = line.substring(colon + 1);
            if (!hash.matches("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}")) {
                throw new IllegalArgumentException("password file line " + number + ": not a bcrypt hash");
            }
            map.put(line.substring(0, colon), hash);
        }
        return new PasswordFile(map);
    }

    /**
     * Checks a user's password in constant time with respect to the user's existence (an unknown
     * user still costs one bcrypt evaluation).
     *
     * @param user the login name
     * @param password the clear-text password; may be null (never matches)
     * @return true if the user exists and the password matches its hash
     */
    public boolean verify(String user, String password) {
        if (user == null || password == null) {
            return false;
        }
        String hash = hashes.get(user);
        if (hash == null) {
            OpenBSDBCrypt.checkPassword(DUMMY_HASH, password.toCharArray());
            return false;
        }
        return OpenBSDBCrypt.checkPassword(hash, password.toCharArray());
    }

    /** @return the number of users in the file */
    public int size() {
        return hashes.size();
    }

    /**
     * Hashes a password with a random salt at {@link #DEFAULT_COST}.
     *
     * @param password the clear-text password
     * @return an OpenBSD bcrypt string ({@code $2y$10$...}, 60 characters)
     */
    public static String hash(char[] password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return OpenBSDBCrypt.generate("2y", password, salt, DEFAULT_COST);
    }

    /**
     * Formats a password file line for a user.
     *
     * @param user the login name; must not contain {@code :} or line breaks
     * @param password the clear-text password
     * @return {@code user:hash}
     * @throws IllegalArgumentException if the user name is empty or contains {@code :}, CR or LF
     */
    public static String line(String user, char[] password) {
        Objects.requireNonNull(user, "user");
        if (user.isEmpty()
                || user.indexOf(':') >= 0
                || user.indexOf('\n') >= 0
                || user.indexOf('\r') >= 0
                || user.startsWith("#")) {
            throw new IllegalArgumentException("invalid user name: " + user);
        }
        return user + ":" + hash(password);
    }
}
