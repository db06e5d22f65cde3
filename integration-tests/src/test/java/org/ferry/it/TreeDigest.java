package org.ferry.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The content of a directory tree as a sorted map: relative path ({@code /}-separated) to
 * {@code "dir"} for directories or the SHA-256 of a regular file. Two trees are byte-identical,
 * empty directories included, when their digests are equal.
 */
final class TreeDigest {

    private TreeDigest() {}

    /** @return the digest map of everything under {@code root} (not following links) */
    static Map<String, String> of(Path root) throws IOException {
        Map<String, String> digest = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                if (path.equals(root)) {
                    continue;
                }
                String name = root.relativize(path).toString().replace('\\', '/');
                digest.put(name, Files.isDirectory(path) ? "dir" : sha256(path));
            }
        }
        return digest;
    }

    /** @return the lowercase hex SHA-256 of a file's bytes */
    static String sha256(Path file) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
