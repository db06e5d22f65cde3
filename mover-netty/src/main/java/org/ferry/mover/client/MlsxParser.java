package org.ferry.mover.client;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import org.ferry.mover.protocol.FileInfo;

/**
 * Parses MLSD/MLST entries (RFC 3659 section 7): {@code fact=value;fact=value; name}. Fact names
 * are case-insensitive; the name is everything after the first space and may contain spaces. Knows
 * {@code Type} (file, dir, cdir, pdir, slink, {@code OS.unix=slink...}), {@code Size},
 * {@code Modify} ({@code YYYYMMDDHHMMSS[.sss]}, UTC), {@code UNIX.mode} (octal), {@code Perm},
 * {@code UNIX.owner}, {@code UNIX.group} and {@code Unique}; ignores others.
 *
 * <p>globus-gridftp-server lists a symbolic link with its target's {@code Type} and facts plus
 * {@code UNIX.slink=<target>} (and omits dangling links); such an entry keeps the target's type
 * here, as globus-url-copy treats it. Crawlers that must not follow links need the
 * {@code UNIX.slink} fact, which {@link FileInfo} does not carry yet.
 */
final class MlsxParser {

    private static final DateTimeFormatter MODIFY = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private MlsxParser() {}

    /**
     * @param entry one entry line without CRLF (MLST's leading space already removed)
     * @return the entry
     * @throws IllegalArgumentException if the line has no space separating facts and name
     */
    static FileInfo parse(String entry) {
        int space = entry.indexOf(' ');
        if (space < 0) {
            throw new IllegalArgumentException("MLSx entry without a name: " + entry);
        }
        String name = entry.substring(space + 1);
        FileInfo.Type type = FileInfo.Type.OTHER;
        long size = 0;
        Instant modified = null;
        int mode = -1;
        String perm = null;
        String owner = null;
        String group = null;
        String unique = null;
        for (String fact : entry.substring(0, space).split(";")) {
            int eq = fact.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = fact.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = fact.substring(eq + 1);
            switch (key) {
                case "type" -> type = type(value);
                case "size" -> size = parseLong(value);
                case "modify" -> modified = modify(value);
                case "unix.mode" -> mode = unixMode(value);
                case "perm" -> perm = value.toLowerCase(Locale.ROOT);
                case "unix.owner" -> owner = value;
                case "unix.group" -> group = value;
                case "unique" -> unique = value;
                default -> {}
            }
        }
        return new FileInfo(name, type, size, modified, mode, perm, owner, group, unique);
    }

    private static FileInfo.Type type(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.equals("file")) {
            return FileInfo.Type.FILE;
        } else if (v.equals("dir")) {
            return FileInfo.Type.DIRECTORY;
        } else if (v.equals("cdir")) {
            return FileInfo.Type.CURRENT_DIRECTORY;
        } else if (v.equals("pdir")) {
            return FileInfo.Type.PARENT_DIRECTORY;
        } else if (v.equals("slink") || v.startsWith("os.unix=slink") || v.startsWith("os.unix=symlink")) {
            return FileInfo.Type.SYMLINK;
        }
        return FileInfo.Type.OTHER;
    }

    private static long parseLong(String value) {
        try {
            long size = Long.parseLong(value);
            return size < 0 ? 0 : size; // a negative size is as good as none (FileInfo: 0 when absent)
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Instant modify(String value) {
        try {
            int dot = value.indexOf('.');
            LocalDateTime time = LocalDateTime.parse(dot < 0 ? value : value.substring(0, dot), MODIFY);
            Instant instant = time.toInstant(ZoneOffset.UTC);
            if (dot >= 0 && dot + 1 < value.length()) {
                String fraction = (value.substring(dot + 1) + "000000000").substring(0, 9);
                instant = instant.plusNanos(Long.parseLong(fraction));
            }
            return instant;
        } catch (DateTimeParseException | NumberFormatException e) {
            return null;
        }
    }

    private static int unixMode(String value) {
        try {
            int mode = Integer.parseInt(value, 8);
            return mode < 0 || mode > 07777 ? -1 : mode; // e.g. "-0777": not permission bits
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
