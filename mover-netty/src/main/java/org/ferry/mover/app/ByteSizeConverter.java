package org.ferry.mover.app;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a byte count such as {@code 512}, {@code 64K}, {@code 32M} or {@code 1G} (suffixes are
 * powers of 1024, case-insensitive, an optional trailing {@code B} or {@code iB} allowed).
 */
public final class ByteSizeConverter implements ITypeConverter<Long> {

    /**
     * @param value the option's text
     * @return the number of bytes, at least 0
     * @throws TypeConversionException (picocli prints it as a usage error) for anything else
     */
    @Override
    public Long convert(String value) {
        String text = value.trim().toUpperCase(java.util.Locale.ROOT);
        if (text.endsWith("IB")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("B")) {
            text = text.substring(0, text.length() - 1);
        }
        int shift = 0;
        if (!text.isEmpty()) {
            switch (text.charAt(text.length() - 1)) {
                case 'K' -> shift = 10;
                case 'M' -> shift = 20;
                case 'G' -> shift = 30;
                default -> shift = 0;
            }
        }
        String digits = shift == 0 ? text : text.substring(0, text.length() - 1);
        try {
            long number = Long.parseLong(digits);
            if (number < 0 || number > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return number << shift;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a byte count (e.g. 512, 64K, 32M, 1G)");
        }
    }
}
