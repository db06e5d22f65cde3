package org.ferry.gsi.ca;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One-time setup keys, kept as SHA-256 hashes in a file (one per line) so that reading the CA
 * directory does not reveal usable keys. A key is removed from the file when it is consumed.
 */
final class SetupKeys {
    private final Path file;
    private final SecureRandom random = new SecureRandom();

    SetupKeys(Path file) {
        this.file = file;
    }

    /** Creates, records and returns a new key (128 random bits, hex). */
    synchronized String create() throws IOException {
        byte[] raw = new byte[16];
        random.nextBytes(raw);
        String key = HexFormat.of().formatHex(raw);
        List<String> hashes = read();
        hashes.add(hash(key));
        Files.write(file, hashes, StandardCharsets.US_ASCII);
        return key;
    }

    /**
     * Removes the key if it is known.
     *
     * @return true when it was known and is now consumed; false when unknown or already used
     */
    synchronized boolean consume(String key) throws IOException {
        byte[] wanted = hash(key).getBytes(StandardCharsets.US_ASCII);
        List<String> hashes = read();
        for (int i = 0; i < hashes.size(); i++) {
            // Constant-time comparison: the hashes are not secret, but habits are cheap.
            if (MessageDigest.isEqual(wanted, hashes.get(i).getBytes(StandardCharsets.US_ASCII))) {
                hashes.remove(i);
                Files.write(file, hashes, StandardCharsets.US_ASCII);
                return true;
            }
        }
        return false;
    }

    private List<String> read() throws IOException {
        return Files.exists(file)
                ? new ArrayList<>(Files.readAllLines(file, StandardCharsets.US_ASCII))
                : new ArrayList<>();
    }

    private static String hash(String key) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(key.trim().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
