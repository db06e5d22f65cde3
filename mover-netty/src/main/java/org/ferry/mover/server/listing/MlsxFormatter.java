package org.ferry.mover.server.listing;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.ferry.mover.storage.FileStat;

/**
 * Formats MLST/MLSD fact lines (RFC 3659 section 7; capitalised fact names and order as
 * globus-gridftp-server emits them, RFC 3659 section 7):
 * {@code Type=file;Size=12;Modify=20261122101530;Perm=adfrw;UNIX.mode=0644; name}. Stateless.
 */
public final class MlsxFormatter {

    /** The facts this server supports, as announced in FEAT ({@code MLST Type*;Size*;...}). */
    public static final String FEATURE = "MLST Type*;Size*;Modify*;Perm*;UNIX.mode*;";

    /** RFC 3659 section 2.3 time-val, UTC, whole seconds: also the MDTM reply format. */
    public static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    private MlsxFormatter() {}

    /**
     * @param stat the entry
     * @param name what to print after the facts: the bare name (MLSD) or the requested path (MLST)
     * @return the line without the leading space and without CRLF
     */
    public static String line(FileStat stat, String name) {
        StringBuilder sb = new StringBuilder();
        sb.append("Type=").append(type(stat)).append(';');
        sb.append("Size=").append(stat.sizeBytes()).append(';');
        sb.append("Modify=");
        appendTime(sb, stat.modified());
        sb.append(';');
        sb.append("Perm=");
        appendPerm(sb, stat);
        sb.append(';');
        if (stat.unixMode() >= 0) {
            // %04o without a Formatter: a listing formats one mode per entry
            int mode = stat.unixMode();
            sb.append("UNIX.mode=");
            if (mode > 07777) {
                sb.append(Integer.toOctalString(mode));
            } else {
                for (int shift = 9; shift >= 0; shift -= 3) {
                    sb.append((char) ('0' + ((mode >>> shift) & 7)));
                }
            }
            sb.append(';');
        }
        return sb.append(' ').append(name).toString();
    }

    private static String type(FileStat stat) {
        return switch (stat.type()) {
            case FILE -> "file";
            case DIRECTORY -> "dir";
            case CURRENT_DIRECTORY -> "cdir";
            case PARENT_DIRECTORY -> "pdir";
            case SYMLINK -> "OS.unix=slink";
            case OTHER -> "OS.unix=other";
        };
    }

    /**
     * Appends {@code yyyyMMddHHmmss} in UTC, whole seconds (what {@link #TIME} prints), without a
     * formatter's per-call objects: a listing prints one time per entry.
     */
    private static void appendTime(StringBuilder sb, java.time.Instant time) {
        java.time.LocalDateTime utc = java.time.LocalDateTime.ofEpochSecond(time.getEpochSecond(), 0, ZoneOffset.UTC);
        int year = utc.getYear();
        if (year < 1000 || year > 9999) {
            sb.append(TIME.format(time.truncatedTo(ChronoUnit.SECONDS)));
            return;
        }
        sb.append(year);
        twoDigits(sb, utc.getMonthValue());
        twoDigits(sb, utc.getDayOfMonth());
        twoDigits(sb, utc.getHour());
        twoDigits(sb, utc.getMinute());
        twoDigits(sb, utc.getSecond());
    }

    private static void twoDigits(StringBuilder sb, int value) {
        sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /** RFC 3659 section 7.5.5: files r/w (a d f w), directories e l (c m p d f). */
    private static void appendPerm(StringBuilder perm, FileStat stat) {
        if (stat.isDirectory()) {
            if (stat.writable()) {
                perm.append("cfmpd");
            }
            if (stat.readable()) {
                perm.append("el");
            }
        } else if (stat.isFile()) {
            if (stat.writable()) {
                perm.append("adfw");
            }
            if (stat.readable()) {
                perm.append('r');
            }
        }
    }
}
