package org.ferry.mover.protocol;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The command lines a GridFTP client sends, built from typed arguments: one factory per command
 * (RFC 959 section 4.1, RFC 3659, GFD.020, GFD.047). Paths are checked for CR and LF, which would
 * end the line early and smuggle a second command onto the control channel (RFC 959 section 4.1.3:
 * a pathname is any string without them). Stateless.
 */
public final class ClientCommands {

    /** The time of MFMT and SITE UTIME, as in MLSx {@code Modify} facts (RFC 3659 section 2.3). */
    private static final DateTimeFormatter MODIFY_TIME = DateTimeFormatter.ofPattern("uuuuMMddHHmmss");

    private ClientCommands() {}

    /** @return {@code RETR path} (RFC 959 section 4.1.3) */
    public static String retr(String path) {
        return "RETR " + path(path);
    }

    /** @return {@code STOR path} (RFC 959 section 4.1.3) */
    public static String stor(String path) {
        return "STOR " + path(path);
    }

    /**
     * @param offset first byte, at least 0
     * @param length bytes, at least 0
     * @return {@code ERET P offset length path} (GFD.020 "ERET", partial retrieve)
     */
    public static String eretPartial(long offset, long length, String path) {
        return "ERET P " + nonNegative(offset) + " " + nonNegative(length) + " " + path(path);
    }

    /**
     * @param offset where the received bytes go, at least 0
     * @return {@code ESTO A offset path} (GFD.020 "ESTO", adjusted store)
     */
    public static String estoAdjusted(long offset, String path) {
        return "ESTO A " + nonNegative(offset) + " " + path(path);
    }

    /**
     * The REST for a restart from the ranges the receiver has (GFD.020 "Restarting"): in MODE E the
     * merged ranges, in stream mode the end of the gap-free prefix.
     *
     * @return the command, or null when there is nothing to restart from
     */
    public static String rest(List<ByteRange> done, boolean extendedBlockMode) {
        List<ByteRange> merged = ByteRange.merge(done);
        if (merged.isEmpty()) {
            return null;
        }
        if (extendedBlockMode) {
            return "REST " + ByteRange.format(merged);
        }
        long prefix = ByteRange.prefix(merged);
        return prefix == 0 ? null : "REST " + prefix;
    }

    /** @return {@code SIZE path} (RFC 3659 section 4) */
    public static String size(String path) {
        return "SIZE " + path(path);
    }

    /** @return {@code MLSD path} (RFC 3659 section 7) */
    public static String mlsd(String path) {
        return "MLSD " + path(path);
    }

    /** @return {@code MLST path} (RFC 3659 section 7) */
    public static String mlst(String path) {
        return "MLST " + path(path);
    }

    /** @return {@code MKD path} (RFC 959 section 4.1.3) */
    public static String mkd(String path) {
        return "MKD " + path(path);
    }

    /** @return {@code RMD path} (RFC 959 section 4.1.3) */
    public static String rmd(String path) {
        return "RMD " + path(path);
    }

    /** @return {@code RNFR path} (RFC 959 section 4.1.3) */
    public static String rnfr(String path) {
        return "RNFR " + path(path);
    }

    /** @return {@code RNTO path} (RFC 959 section 4.1.3) */
    public static String rnto(String path) {
        return "RNTO " + path(path);
    }

    /** @return {@code DELE path} (RFC 959 section 4.1.3) */
    public static String dele(String path) {
        return "DELE " + path(path);
    }

    /**
     * @param algorithm e.g. {@code MD5}, {@code ADLER32}
     * @return {@code CKSM ALGORITHM 0 -1 path}: the whole file (GFD.047 "CKSM")
     */
    public static String cksm(String algorithm, String path) {
        return "CKSM " + token(algorithm).toUpperCase(Locale.ROOT) + " 0 -1 " + path(path);
    }

    /**
     * @param modified the time to set, UTC; a fraction of a second is dropped (the draft's
     *     {@code .sss} is optional, and globus-gridftp-server ignores it)
     * @return {@code MFMT YYYYMMDDHHMMSS path} (draft-somers-ftp-mfxx section 3)
     * @throws IllegalArgumentException for a time before year 1 or after 9999
     */
    public static String mfmt(Instant modified, String path) {
        return "MFMT " + time(modified) + " " + path(path);
    }

    /**
     * @param modified the time to set, UTC; a fraction of a second is dropped
     * @return {@code SITE UTIME YYYYMMDDHHMMSS path}: globus-gridftp-server's own command for what
     *     MFMT does, for servers that do not list MFMT in FEAT
     * @throws IllegalArgumentException for a time before year 1 or after 9999
     */
    public static String siteUtime(Instant modified, String path) {
        return "SITE UTIME " + time(modified) + " " + path(path);
    }

    /**
     * @param mode permission bits, 0..07777
     * @return {@code SITE CHMOD <octal> path} (globus-gridftp-server's form; RFC 959 section 4.1.3 SITE)
     * @throws IllegalArgumentException if {@code mode} is out of range or the path holds CR or LF
     */
    public static String siteChmod(int mode, String path) {
        if (mode < 0 || mode > 07777) {
            throw new IllegalArgumentException("permission bits must be 0..07777, were " + Integer.toOctalString(mode));
        }
        return "SITE CHMOD " + String.format("%03o", mode) + " " + path(path);
    }

    /**
     * @param seconds marker period, 1..86400
     * @return {@code TREV RESTART seconds} (GFD.020 "Restarting": the receiver's 111 markers)
     * @throws IllegalArgumentException outside that range
     */
    public static String trevRestart(int seconds) {
        if (seconds < 1 || seconds > 86_400) {
            throw new IllegalArgumentException("restart marker interval must be 1..86400 s, was " + seconds);
        }
        return "TREV RESTART " + seconds;
    }

    /**
     * @param seconds marker period, 1..86400
     * @return {@code TREV PERF seconds} (globus-gridftp-server's transfer event command: the
     *     receiver's 112 performance markers, GFD.020 "Performance Monitoring")
     * @throws IllegalArgumentException outside that range
     */
    public static String trevPerf(int seconds) {
        if (seconds < 1 || seconds > 86_400) {
            throw new IllegalArgumentException("performance marker interval must be 1..86400 s, was " + seconds);
        }
        return "TREV PERF " + seconds;
    }

    /** @return {@code MODE E} or {@code MODE S} (RFC 959 section 3.4, GFD.020 "Extended Block Mode") */
    public static String mode(boolean extendedBlockMode) {
        return extendedBlockMode ? "MODE E" : "MODE S";
    }

    /**
     * @param options the {@code name=value;} options, each ending with ';'
     * @return {@code OPTS RETR options} (GFD.020 "Options to RETR")
     */
    public static String optsRetr(String options) {
        return "OPTS RETR " + token(options);
    }

    /**
     * @param parallelism data connections, 1..64: start, minimum and maximum alike
     * @return the {@code Parallelism=n,n,n;} option of OPTS RETR
     */
    public static String parallelismOption(int parallelism) {
        if (parallelism < 1 || parallelism > 64) {
            throw new IllegalArgumentException("parallelism must be 1..64, was " + parallelism);
        }
        return "Parallelism=" + parallelism + "," + parallelism + "," + parallelism + ";";
    }

    /** @return {@code SPOR h1,h2,h3,h4,p1,p2 ...}, one address per stripe (GFD.020 "SPOR") */
    public static String spor(List<InetSocketAddress> stripes) {
        if (stripes.isEmpty()) {
            throw new IllegalArgumentException("SPOR needs at least one stripe");
        }
        StringBuilder line = new StringBuilder("SPOR");
        for (InetSocketAddress stripe : stripes) {
            line.append(' ').append(HostPort.format(stripe));
        }
        return line.toString();
    }

    private static String time(Instant modified) {
        LocalDateTime utc = LocalDateTime.ofInstant(modified, ZoneOffset.UTC);
        if (utc.getYear() < 1 || utc.getYear() > 9999) {
            throw new IllegalArgumentException("a modification time must lie in years 1..9999, was " + modified);
        }
        return MODIFY_TIME.format(utc);
    }

    private static String path(String path) {
        if (path.indexOf('\r') >= 0 || path.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a path must not contain CR or LF: "
                    + path.replace("\r", "\\r").replace("\n", "\\n"));
        }
        return path;
    }

    private static String token(String value) {
        if (value.isEmpty() || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("not a valid command argument (empty, or contains CR or LF): "
                    + value.replace("\r", "\\r").replace("\n", "\\n"));
        }
        return value;
    }

    private static long nonNegative(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("must be >= 0, was " + value);
        }
        return value;
    }
}
