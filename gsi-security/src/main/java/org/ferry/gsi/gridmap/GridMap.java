package org.ferry.gsi.gridmap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.ferry.gsi.name.DistinguishedNames;

/**
 * A parsed grid-mapfile: DN to local user names (reference 4.4; Globus {@code gridmap.c}).
 *
 * <p>Syntax per line: {@code "<DN>" user1,user2}. The DN is in double quotes with backslash
 * escapes ({@code \"}, {@code \\}); an unquoted DN runs to the first blank. Users are
 * comma-separated, blanks around commas allowed; the first is the default mapping. {@code #}
 * starts a comment line; blank lines are ignored. DNs match case-insensitively after the
 * Email/UID normalisation of {@link DistinguishedNames#normalise(String)}. When a DN appears on
 * several lines, the users of all lines are merged in file order.
 */
public final class GridMap {
    private final Map<String, List<String>> usersByDn;
    private final String source;

    private GridMap(Map<String, List<String>> usersByDn, String source) {
        this.usersByDn = usersByDn;
        this.source = source;
    }

    /**
     * @param file a grid-mapfile
     * @return the parsed map
     * @throws IOException if the file cannot be read or a line is malformed (message names the line)
     */
    public static GridMap load(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(r, file.toString());
        }
    }

    /**
     * @param text grid-mapfile content
     * @return the parsed map
     * @throws IOException if a line is malformed
     */
    public static GridMap parse(String text) throws IOException {
        return parse(new StringReader(text), "<text>");
    }

    /**
     * @param reader grid-mapfile content
     * @param source name used in error messages
     * @return the parsed map
     * @throws IOException if reading fails or a line is malformed
     */
    public static GridMap parse(Reader reader, String source) throws IOException {
        Map<String, List<String>> map = new LinkedHashMap<>();
        BufferedReader in = new BufferedReader(reader);
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            int[] end = new int[1];
            String dn = readDn(s, end, source, number);
            String rest = s.substring(end[0]).strip();
            if (rest.isEmpty()) {
                throw new IOException(source + ":" + number + ": no local user after DN " + dn);
            }
            List<String> users = map.computeIfAbsent(DistinguishedNames.normalise(dn), k -> new ArrayList<>());
            for (String u : rest.split(",")) {
                String user = u.strip();
                if (user.isEmpty() || user.chars().anyMatch(Character::isWhitespace)) {
                    throw new IOException(source + ":" + number + ": bad user list '" + rest + "'");
                }
                if (!users.contains(user)) {
                    users.add(user);
                }
            }
        }
        Map<String, List<String>> frozen = new LinkedHashMap<>();
        map.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return new GridMap(frozen, source);
    }

    private static String readDn(String s, int[] end, String source, int number) throws IOException {
        StringBuilder dn = new StringBuilder();
        if (s.charAt(0) != '"') {
            int i = 0;
            while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                dn.append(s.charAt(i++));
            }
            end[0] = i;
            return dn.toString();
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                dn.append(s.charAt(++i));
            } else if (c == '"') {
                end[0] = i + 1;
                return dn.toString();
            } else {
                dn.append(c);
            }
        }
        throw new IOException(source + ":" + number + ": unterminated quoted DN");
    }

    /**
     * @param dn an identity in oneline form
     * @return the local users mapped to it, default first; empty if the DN is not in the file
     */
    public List<String> users(String dn) {
        return usersByDn.getOrDefault(DistinguishedNames.normalise(dn), List.of());
    }

    /**
     * @param dn an identity in oneline form
     * @return the default (first) local user, if any
     */
    public Optional<String> defaultUser(String dn) {
        List<String> u = users(dn);
        return u.isEmpty() ? Optional.empty() : Optional.of(u.get(0));
    }

    /** @return where this map was read from, for messages */
    public String source() {
        return source;
    }
}
