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
        if (algorithm.equals("ADLER32")) {
            Adler32 adler = new Adler32();
            read(channel, from, to, adler::update);
            return String.format("%08x", adler.getValue());
        }
        if (algorithm.equals("CRC32C")) {
            CRC32C crc = new CRC32C();
            read(channel, from, to, crc::update);
            return String.format("%08x", crc.getValue());
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
        read(channel, from, to, digest::update);
        return HexFormat.of().formatHex(digest.digest());
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
