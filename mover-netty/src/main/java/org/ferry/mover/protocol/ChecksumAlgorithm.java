package org.ferry.mover.protocol;

import java.util.HexFormat;
import java.util.Locale;

/**
 * The checksum algorithms a client asks for with {@code CKSM} (GFD.047 "CKSM"), under the names
 * globus-gridftp-server gives them ({@code MD5;ADLER32;SHA1;SHA256;SHA512;} in its FEAT, plus
 * Ferry's CRC32C), with the length of their hex value: what {@code verify_checksum}, sync level 3
 * and an item's {@code external_checksum} compare (Globus Transfer API {@code checksum_algorithm}).
 */
public enum ChecksumAlgorithm {
    /** RFC 1321; 32 hex digits. The default, as in Globus. */
    MD5(32),
    /** RFC 1950 section 8.2; 8 hex digits (leading zeros kept, as globus-gridftp-server prints it). */
    ADLER32(8),
    /** FIPS 180-4; 40 hex digits. */
    SHA1(40),
    /** FIPS 180-4; 64 hex digits. */
    SHA256(64),
    /** FIPS 180-4; 128 hex digits. */
    SHA512(128),
    /** Castagnoli, RFC 3720 appendix B.4; 8 hex digits. Ferry's servers speak it, globus-gridftp-server does not. */
    CRC32C(8);

    private final int hexDigits;

    ChecksumAlgorithm(int hexDigits) {
        this.hexDigits = hexDigits;
    }

    /** @return how many hex digits a value of this algorithm has */
    public int hexDigits() {
        return hexDigits;
    }

    /**
     * @param name an algorithm name in any case ({@code sha256}, {@code Adler32})
     * @return the algorithm, or null when the name is none of them (null or blank included)
     */
    public static ChecksumAlgorithm parse(String name) {
        if (name == null) {
            return null;
        }
        try {
            return valueOf(name.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * @param value a checksum as a user wrote it
     * @return true if it is exactly {@link #hexDigits()} hex digits (either case)
     */
    public boolean isValue(String value) {
        return value != null && value.length() == hexDigits && value.chars().allMatch(HexFormat::isHexDigit);
    }
}
