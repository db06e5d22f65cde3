package org.ferry.mover.data.security;

import java.util.Locale;
import java.util.Optional;

/**
 * The data channel protection level set by {@code PROT} (RFC 2228 section 3; GFD.020 "DCAU", RFC 2228 section 3 (PROT, PBSZ); GFD.020 "DCAU", RFC 2228 section 3 (PROT)). Applies only when DCAU is not N. Confidential (E) is not offered, as in globus.
 */
public enum ProtectionLevel {
    /** {@code PROT C}: authenticate (GSI handshake and flag byte), then clear bytes. */
    CLEAR('C'),
    /** {@code PROT S}: TLS on the whole connection, integrity requested. */
    SAFE('S'),
    /** {@code PROT P}: TLS on the whole connection with an encrypting cipher suite. */
    PRIVATE('P');

    private final char code;

    ProtectionLevel(char code) {
        this.code = code;
    }

    /** @return the letter used on the wire, e.g. {@code P} */
    public char code() {
        return code;
    }

    /** @return true when the whole connection runs through TLS (S and P) */
    public boolean tls() {
        return this != CLEAR;
    }

    /**
     * @param argument the PROT argument, e.g. {@code "p"}
     * @return the level, or empty for E and anything unknown (globus answers 536)
     */
    public static Optional<ProtectionLevel> parse(String argument) {
        String a = argument.strip().toUpperCase(Locale.ROOT);
        for (ProtectionLevel level : values()) {
            if (a.equals(String.valueOf(level.code))) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }
}
