package org.ferry.mover.server.popen;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The programs a server lets clients run on the data path, each reachable by its absolute path or
 * by an alias: {@code tar:/bin/tar,md5dir:/usr/local/bin/md5dir,/usr/bin/gzip} (the format of
 * globus-gridftp-server's {@code -popen-whitelist [alias:]prog,[alias:]prog}). Empty means popen is
 * off, the default. Immutable.
 */
public final class PopenAllowList {

    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9._+-]{1,64}");

    private static final PopenAllowList NONE = new PopenAllowList(Map.of());

    /** alias or absolute path, as a client may name it, to the program's absolute path */
    private final Map<String, Path> programs;

    private PopenAllowList(Map<String, Path> programs) {
        this.programs = Map.copyOf(programs);
    }

    /** @return the empty list: popen off */
    public static PopenAllowList none() {
        return NONE;
    }

    /**
     * Parses {@code [alias:]/abs/path,...}; blanks around entries are ignored.
     *
     * @param spec the list, e.g. {@code tar:/bin/tar,md5dir:/usr/local/bin/md5dir}
     * @return the allow list
     * @throws IllegalArgumentException for an empty entry, a relative path, an alias with characters
     *     outside {@code [A-Za-z0-9._+-]} or two entries claiming the same alias
     */
    public static PopenAllowList parse(String spec) {
        Map<String, Path> programs = new LinkedHashMap<>();
        for (String raw : spec.split(",", -1)) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("empty entry in popen allow list '" + spec + "'");
            }
            int colon = entry.indexOf(':');
            String alias = colon < 0 ? null : entry.substring(0, colon);
            String program = colon < 0 ? entry : entry.substring(colon + 1);
            if (!program.startsWith("/") || program.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("popen program must be an absolute path: '" + entry + "'");
            }
            Path path = Path.of(program).normalize();
            if (alias != null) {
                if (!ALIAS.matcher(alias).matches()) {
                    throw new IllegalArgumentException("bad popen alias '" + alias + "' (letters, digits, . _ + -)");
                }
                Path earlier = programs.put(alias, path);
                if (earlier != null && !earlier.equals(path)) {
                    throw new IllegalArgumentException("popen alias '" + alias + "' names two programs");
                }
            }
            programs.put(path.toString(), path);
        }
        return new PopenAllowList(programs);
    }

    /** @return true if no program may run (popen off) */
    public boolean isEmpty() {
        return programs.isEmpty();
    }

    /**
     * @param name what a client named: an alias or an absolute path, compared exactly (globus
     *     compares the string too; {@code /bin/../bin/tar} is not {@code /bin/tar})
     * @return the program's absolute path, if allowed
     */
    public Optional<Path> resolve(String name) {
        return Optional.ofNullable(programs.get(name));
    }

    /** @return the distinct programs, for logs and checks at start */
    public List<Path> programs() {
        return programs.values().stream().distinct().toList();
    }

    @Override
    public String toString() {
        return programs.toString();
    }
}
