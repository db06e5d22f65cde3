package org.ferry.mover.server.listing;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.ferry.mover.storage.FileStat;

/**
 * Formats LIST lines like {@code ls -l} (the layout globus-gridftp-server uses,
 * RFC 3659 section 7): {@code -rw-r--r--   1 owner group  12 Nov 22 10:15 name};
 * entries older than about six months show the year instead of the time. Times are UTC. Stateless.
 */
public final class ListFormatter {

    private static final DateTimeFormatter RECENT =
            DateTimeFormatter.ofPattern("MMM dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter OLD =
            DateTimeFormatter.ofPattern("MMM dd  yyyy", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ListFormatter() {}

    /**
     * @param stat the entry
     * @param now the current time (decides recent vs. old layout)
     * @return the line without CRLF
     */
    public static String line(FileStat stat, Instant now) {
        Instant modified = stat.modified();
        boolean recent =
                modified.isAfter(now.minus(180, ChronoUnit.DAYS)) && !modified.isAfter(now.plus(1, ChronoUnit.DAYS));
        return String.format(
                Locale.ROOT,
                "%s %3d %-8s %-8s %12d %s %s",
                permissions(stat),
                stat.isDirectory() ? 2 : 1,
                stat.owner(),
                stat.group(),
                stat.sizeBytes(),
                (recent ? RECENT : OLD).format(modified),
                stat.name());
    }

    private static String permissions(FileStat stat) {
        char type = switch (stat.type()) {
            case DIRECTORY, CURRENT_DIRECTORY, PARENT_DIRECTORY -> 'd';
            case SYMLINK -> 'l';
            case FILE -> '-';
            case OTHER -> '?';
        };
        int mode = stat.unixMode() < 0 ? (stat.isDirectory() ? 0755 : 0644) : stat.unixMode();
        StringBuilder sb = new StringBuilder().append(type);
        String letters = "rwxrwxrwx";
        for (int i = 0; i < 9; i++) {
            sb.append((mode & (0400 >> i)) != 0 ? letters.charAt(i) : '-');
        }
        return sb.toString();
    }
}
