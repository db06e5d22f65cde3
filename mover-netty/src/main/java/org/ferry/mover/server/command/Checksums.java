package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;

/**
 * The checksum algorithms of CKSM and SCKS, with globus-gridftp-server's names and output format
 * (GFD.047 "CKSM"): names case-insensitive; lowercase hex, MD5/SHA per byte,
 * ADLER32 and CRC32C as exactly 8 digits, so that globus-url-copy's case-sensitive comparison
 * across servers matches. CRC32C (Castagnoli, RFC 3720 appendix B.4; what cloud object stores and
 * XRootD sites list) is Ferry's addition: globus-gridftp-server 13 offers MD5, ADLER32, SHA1,
 * SHA256 and SHA512. Stateless.
 */
final class Checksums {

    /** The algorithms, in FEAT order. */
    static final List<String> ALGORITHMS = List.of("MD5", "ADLER32", "SHA1", "SHA256", "SHA512", "CRC32C");

    private static final int BUFFER_BYTES = 256 * 1024;

    private Checksums() {}

    /**
     * @param name an algorithm name in any case
     * @return its canonical upper-case name, or null if not supported
     */
    static String canonical(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return ALGORITHMS.contains(upper) ? upper : null;
    }

    /**
     * Computes a checksum of {@code [from, to)} of a file with positional reads.
     *
     * @param algorithm a canonical name from {@link #ALGORITHMS}
     * @param channel open for reading
     * @param from first byte
     * @param to end (exclusive)
     * @return lowercase hex
     * @throws IOException if reading fails
     */
    static String compute(String algorithm, FileChannel channel, long from, long to) throws IOException {
        Running running = start(algorithm);
        read(channel, from, to, running::update);
        return running.hex();
    }

    /** A checksum being computed over bytes in order, e.g. as they arrive ({@link InflightChecksums}). */
    interface Running {
        /** @param bytes the next bytes, read to their limit */
        void update(ByteBuffer bytes);

        /** @return the checksum of everything given, lowercase hex as CKSM answers it; call once */
        String hex();
    }

    /**
     * @param algorithm a canonical name from {@link #ALGORITHMS}
     * @return a new checksum over no bytes yet
     */
    static Running start(String algorithm) {
        if (algorithm.equals("ADLER32") || algorithm.equals("CRC32C")) {
            java.util.zip.Checksum sum = algorithm.equals("ADLER32") ? new Adler32() : new CRC32C();
            return new Running() {
                @Override
                public void update(ByteBuffer bytes) {
                    sum.update(bytes);
                }

                @Override
                public String hex() {
                    return String.format("%08x", sum.getValue());
                }
            };
        }
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance(
                    switch (algorithm) {
                        case "SHA1" -> "SHA-1";
                        case "SHA256" -> "SHA-256";
                        case "SHA512" -> "SHA-512";
                        default -> algorithm;
                    });
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is a required JDK algorithm", e);
        }
        return new Running() {
            @Override
            public void update(ByteBuffer bytes) {
                digest.update(bytes);
            }

            @Override
            public String hex() {
                return HexFormat.of().formatHex(digest.digest());
            }
        };
    }

    private static void read(FileChannel channel, long from, long to, java.util.function.Consumer<ByteBuffer> sink)
            throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        long position = from;
        while (position < to) {
            buffer.clear();
            buffer.limit((int) Math.min(BUFFER_BYTES, to - position));
            int n = channel.read(buffer, position);
            if (n < 0) {
                break;
            }
            position += n;
            buffer.flip();
            sink.accept(buffer);
        }
    }
}
