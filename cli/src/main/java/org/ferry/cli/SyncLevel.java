package org.ferry.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * The {@code --sync-level} values: what makes a file already at the destination count as
 * transferred. The API's number is the ordinal.
 */
public enum SyncLevel {
    /** 0: the destination file exists. */
    EXISTS,
    /** 1: it exists with the same size. */
    SIZE,
    /** 2: it exists and is not older than the source. */
    MTIME,
    /** 3: it exists with the same checksum. */
    CHECKSUM;

    /** Accepts a name (any case) or its number 0 to 3; anything else is a usage error. */
    public static final class Converter implements CommandLine.ITypeConverter<SyncLevel> {
        /**
         * Parses a value.
         *
         * @param value {@code exists|size|mtime|checksum} or {@code 0-3}
         * @return the level
         */
        @Override
        public SyncLevel convert(String value) {
            String v = value.trim().toUpperCase(Locale.ROOT);
            if (v.length() == 1 && v.charAt(0) >= '0' && v.charAt(0) <= '3') {
                return values()[v.charAt(0) - '0'];
            }
            try {
                return valueOf(v);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(
                        "expected exists, size, mtime, checksum or 0-3 but was '" + value + "'");
            }
        }
    }
}
