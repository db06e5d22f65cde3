package org.ferry.mover.data.security;

import java.util.Locale;
import java.util.Objects;

/**
 * A {@code DCAU} setting (GFD.020 GSI appendix "DCAU"; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ)): N (none),
 * A (the peer must have our own identity, "self") or S (the peer must have {@code subject}).
 *
 * @param mode    N, A or S
 * @param subject the required peer identity (OpenSSL oneline DN) for S, null otherwise
 */
public record DataChannelAuthentication(Mode mode, String subject) {

    /** DCAU modes. */
    public enum Mode {
        /** {@code DCAU N}: plain TCP. */
        NONE,
        /** {@code DCAU A}: the peer presents the same identity as our credential. */
        SELF,
        /** {@code DCAU S <subject>}: the peer presents the given identity. */
        SUBJECT
    }

    /** {@code DCAU N}. */
    public static final DataChannelAuthentication NONE = new DataChannelAuthentication(Mode.NONE, null);

    /** {@code DCAU A}. */
    public static final DataChannelAuthentication SELF = new DataChannelAuthentication(Mode.SELF, null);

    /**
     * @throws IllegalArgumentException if S has no subject, or N/A has one
     */
    public DataChannelAuthentication {
        Objects.requireNonNull(mode, "mode");
        if ((mode == Mode.SUBJECT) != (subject != null && !subject.isBlank())) {
            throw new IllegalArgumentException("DCAU S needs a subject, N and A take none");
        }
    }

    /**
     * @param subject the peer identity, e.g. {@code /O=Grid/CN=Someone}
     * @return {@code DCAU S subject}
     */
    public static DataChannelAuthentication subject(String subject) {
        return new DataChannelAuthentication(Mode.SUBJECT, subject);
    }

    /** @return true unless N */
    public boolean authenticates() {
        return mode != Mode.NONE;
    }

    /** @return the command argument: {@code N}, {@code A} or {@code S <subject>} */
    public String argument() {
        return switch (mode) {
            case NONE -> "N";
            case SELF -> "A";
            case SUBJECT -> "S " + subject;
        };
    }

    /** @return the letter: N, A or S */
    public char letter() {
        return argument().charAt(0);
    }

    /**
     * Parses a DCAU argument.
     *
     * @param argument e.g. {@code A}, {@code s /O=Grid/CN=x}
     * @return the setting
     * @throws IllegalArgumentException with globus' reply text: {@code Bad DCAU mode.} or
     *     {@code DCAU S expected subject.}
     */
    public static DataChannelAuthentication parse(String argument) {
        String a = argument.strip();
        if (a.isEmpty()) {
            throw new IllegalArgumentException("Bad DCAU mode.");
        }
        String letter = a.substring(0, 1).toUpperCase(Locale.ROOT);
        String rest = a.substring(1);
        if (!rest.isEmpty() && !Character.isWhitespace(rest.charAt(0))) {
            throw new IllegalArgumentException("Bad DCAU mode.");
        }
        rest = rest.strip();
        return switch (letter) {
            case "N" -> NONE;
            case "A" -> SELF;
            case "S" -> {
                if (rest.isEmpty()) {
                    throw new IllegalArgumentException("DCAU S expected subject.");
                }
                yield subject(rest);
            }
            default -> throw new IllegalArgumentException("Bad DCAU mode.");
        };
    }
}
