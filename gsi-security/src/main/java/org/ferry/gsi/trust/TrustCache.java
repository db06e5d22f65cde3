package org.ferry.gsi.trust;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Validators for one base trust directory (the site's {@code X509_CERT_DIR}) plus, per user, the
 * extra trust roots they bootstrapped from a MyProxy server. canl validates against a directory,
 * so each distinct set of extra roots gets a directory of its own under {@code workDirectory}: the
 * base files first, then the extra ones that do not collide with a base file (a user's roots add
 * CAs; they never replace the site's CA files or signing policies). Each directory and its
 * validator are made once and kept while this cache lives. Thread-safe; close it to dispose of the
 * validators.
 */
public final class TrustCache implements AutoCloseable {

    /** What a session needs to validate peers: the validator and the CA certificates behind it. */
    public record Trust(ChainValidator validator, TrustStore trustStore) {}

    private final Path baseDirectory;
    private final Path workDirectory;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    private record Entry(CanlChainValidator validator, OpensslTrustDirectory store) {}

    /**
     * @param baseDirectory the site's trust directory; validators see its files as of the first
     *     use of each set of extra roots
     * @param workDirectory where merged directories go (created if missing)
     */
    public TrustCache(Path baseDirectory, Path workDirectory) {
        this.baseDirectory = baseDirectory;
        this.workDirectory = workDirectory;
    }

    /** @return the site's trust directory */
    public Path baseDirectory() {
        return baseDirectory;
    }

    /**
     * @param extra a user's extra roots, possibly empty
     * @return the validator and trust store for the base directory plus {@code extra}
     * @throws IOException if the base directory cannot be read or holds no CA and {@code extra}
     *     adds none, or the merged directory cannot be written
     */
    public Trust trust(TrustRoots extra) throws IOException {
        String key = extra.isEmpty() ? "" : extra.digest();
        try {
            Entry entry = entries.computeIfAbsent(key, k -> {
                try {
                    Path directory = k.isEmpty() ? baseDirectory : merged(k, extra);
                    return new Entry(new CanlChainValidator(directory), OpensslTrustDirectory.load(directory));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            return new Trust(entry.validator(), entry.store());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private Path merged(String digest, TrustRoots extra) throws IOException {
        Path target = workDirectory.resolve("trust-" + digest.substring(0, 32));
        if (Files.isDirectory(target)) {
            deleteTree(target); // from an earlier run: the base may have changed since
        }
        Files.createDirectories(workDirectory);
        Path temporary = Files.createTempDirectory(workDirectory, "trust-");
        if (Files.isDirectory(baseDirectory)) {
            try (Stream<Path> files = Files.list(baseDirectory)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (Files.isRegularFile(f)) {
                        Files.copy(f, temporary.resolve(f.getFileName().toString()));
                    }
                }
            }
        }
        for (Map.Entry<String, byte[]> file : extra.files().entrySet()) {
            Path p = temporary.resolve(file.getKey());
            if (!Files.exists(p)) {
                Files.write(p, file.getValue());
            }
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
            deleteTree(temporary);
            if (!Files.isDirectory(target)) {
                throw e;
            }
        }
        return target;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    public void close() {
        entries.values().forEach(e -> e.validator().close());
        entries.clear();
    }
}
