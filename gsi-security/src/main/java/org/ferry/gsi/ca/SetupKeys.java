package org.ferry.gsi.ca;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One-time setup keys, kept as SHA-256 hashes in a file so that reading the CA directory does not
 * reveal usable keys. One line per key: {@code <hash> <expires epoch s> <service name or -> [used
 * epoch s]}; a line with the hash alone (the first format) never expires and names no service. A
 * redeemed key stays in the file, marked used, so that a second use is told apart from a mistyped
 * key (a stolen key used twice is worth saying so).
 */
final class SetupKeys {
    /** What a key was made for. */
    record Grant(String serviceName, Instant expires) {}

    private final Path file;
    private final SecureRandom random = new SecureRandom();

    SetupKeys(Path file) {
        this.file = file;
    }

    /** Creates, records and returns a new key (128 random bits, hex) that never expires and names no service. */
    synchronized String create() throws IOException {
        return create(null, null);
    }

    /**
     * Creates, records and returns a new key (128 random bits, 32 hex digits).
     *
     * @param serviceName what the key's certificate will be for ({@code host/<fqdn>}, ...), or null for the
     *     caller to say at redemption
     * @param expires when it stops being accepted, or null for never
     */
    synchronized String create(String serviceName, Instant expires) throws IOException {
        if (serviceName != null && serviceName.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("service name must not contain white space: " + serviceName);
        }
        byte[] raw = new byte[16];
        random.nextBytes(raw);
        String key = HexFormat.of().formatHex(raw);
        String line = hash(key) + " " + (expires == null ? Long.MAX_VALUE : expires.getEpochSecond()) + " "
                + (serviceName == null ? "-" : serviceName);
        try (FileChannel locked = lock()) {
            List<String> lines = read();
            lines.add(line);
            write(lines);
        }
        return key;
    }

    /**
     * Marks the key used if it is known, unused and not expired.
     *
     * @param key the key as the user typed it (surrounding white space ignored)
     * @param now the time of redemption
     * @return what the key was made for (the service name null when it names none)
     * @throws SetupKeyException UNKNOWN, USED or EXPIRED
     */
    synchronized Grant consume(String key, Instant now) throws IOException, SetupKeyException {
        try (FileChannel locked = lock()) {
            return consume(key, now, read());
        }
    }

    private Grant consume(String key, Instant now, List<String> lines) throws IOException, SetupKeyException {
        byte[] wanted = hash(key).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < lines.size(); i++) {
            String[] fields = lines.get(i).trim().split(" +");
            // Constant-time comparison: the hashes are not secret, but habits are cheap.
            if (!MessageDigest.isEqual(wanted, fields[0].getBytes(StandardCharsets.US_ASCII))) {
                continue;
            }
            if (fields.length >= 4) {
                throw new SetupKeyException(
                        SetupKeyException.Reason.USED,
                        "setup key has already been used (at " + Instant.ofEpochSecond(Long.parseLong(fields[3]))
                                + "); make a new one");
            }
            long expiresSecond = fields.length >= 2 ? Long.parseLong(fields[1]) : Long.MAX_VALUE;
            Instant expires =
                    expiresSecond >= Instant.MAX.getEpochSecond() ? Instant.MAX : Instant.ofEpochSecond(expiresSecond);
            if (!now.isBefore(expires)) {
                throw new SetupKeyException(
                        SetupKeyException.Reason.EXPIRED, "setup key expired at " + expires + "; make a new one");
            }
            String name = fields.length >= 3 && !fields[2].equals("-") ? fields[2] : null;
            lines.set(
                    i,
                    fields[0] + " " + (fields.length >= 2 ? fields[1] : Long.MAX_VALUE) + " "
                            + (name == null ? "-" : name) + " " + now.getEpochSecond());
            write(lines);
            return new Grant(name, expires);
        }
        throw new SetupKeyException(
                SetupKeyException.Reason.UNKNOWN, "setup key is not known here (mistyped, or made by another service)");
    }

    /**
     * Locks the key file against every other writer, in this process or another (the relay serving
     * redeems keys while {@code ferry-connect-relay new-key} adds one): each read-modify-write holds
     * it, so neither a new key nor a key's used mark is lost. The lock is on a file of its own beside
     * the key file, which {@link #write} replaces. A second SetupKeys of this process on the same
     * file holds the JVM's lock already; this waits for it to be released.
     *
     * @return the lock file's channel, locked; closing it releases the lock
     */
    private FileChannel lock() throws IOException {
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            while (true) {
                try {
                    channel.lock();
                    return channel;
                } catch (OverlappingFileLockException e) {
                    Thread.sleep(5);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
            throw new InterruptedIOException("interrupted waiting for the lock on " + lockFile);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private List<String> read() throws IOException {
        return Files.exists(file)
                ? new ArrayList<>(Files.readAllLines(file, StandardCharsets.US_ASCII))
                : new ArrayList<>();
    }

    /** Writes the whole file anew beside it and moves it over, so a crash leaves the old or the new list. */
    private void write(List<String> lines) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.write(next, lines, StandardCharsets.US_ASCII);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
