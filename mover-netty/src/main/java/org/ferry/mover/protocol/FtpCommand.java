package org.ferry.mover.protocol;

import java.util.Locale;
import java.util.Objects;

/**
 * One control channel command line, split into verb and argument (RFC 959 section 4.1, 5.3: the
 * verb is case-insensitive and separated from its argument by a single space).
 *
 * @param verb the command verb in upper case, e.g. {@code RETR}; empty for an empty line
 * @param argument everything after the first space, unmodified (may contain spaces); empty if none
 * @param tooLong true if the line exceeded the decoder's limit and was discarded (verb and
 *     argument are then empty); the server answers 500 and keeps the session
 */
public record FtpCommand(String verb, String argument, boolean tooLong) {

    /** @throws NullPointerException if verb or argument is null */
    public FtpCommand {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(argument, "argument");
    }

    /**
     * Parses a line (without its CRLF).
     *
     * @param line the command line
     * @return the command; the verb is upper-cased with {@link Locale#ROOT}
     */
    public static FtpCommand parse(String line) {
        int space = line.indexOf(' ');
        if (space < 0) {
            return new FtpCommand(line.toUpperCase(Locale.ROOT), "", false);
        }
        return new FtpCommand(line.substring(0, space).toUpperCase(Locale.ROOT), line.substring(space + 1), false);
    }

    /** @return the marker command for a discarded overlong line */
    public static FtpCommand overlong() {
        return new FtpCommand("", "", true);
    }

    /** @return the line as it would be logged; PASS arguments are masked */
    @Override
    public String toString() {
        if (tooLong) {
            return "<overlong line>";
        }
        return argument.isEmpty() ? verb : verb + " " + ("PASS".equals(verb) ? "****" : argument);
    }
}
