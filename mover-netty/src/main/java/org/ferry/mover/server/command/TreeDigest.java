package org.ferry.mover.server.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.storage.VirtualPaths;

/**
 * The digest of a whole directory tree in one answer (seed 003's directory checksums, built in):
 * {@code CKSM SHA256-TREE 0 -1 dir} answers the SHA-256 of a manifest with one line per regular
 * file below {@code dir}, {@code <sha256 of the file>  ./<path relative to dir>\n}, sorted by the
 * paths' UTF-8 bytes: exactly what {@code cd dir && find . -type f -print0 | LC_ALL=C sort -z |
 * xargs -0 -r sha256sum} prints, so {@code bin/ferry-treedigest dir} (that pipeline, an
 * allow-listed program for the Popen driver) gives the same digest on a host without Ferry.
 * Directories themselves, empty ones included, and symbolic links that the storage interface does
 * not follow are not part of it. Files are hashed in parallel.
 */
final class TreeDigest {

    /** The CKSM algorithm name. */
    static final String ALGORITHM = "SHA256-TREE";

    /** Deeper trees are refused (a link loop inside the root would otherwise never end). */
    static final int MAX_DEPTH = 256;

    private TreeDigest() {}

    /**
     * @param storage the session's storage interface
     * @param directory virtual path of the tree's top
     * @return the lowercase hex digest
     * @throws FtpException 550 for a tree deeper than {@link #MAX_DEPTH}
     * @throws StorageException if a directory cannot be listed or a file read
     */
    static String compute(StorageInterface storage, String directory) throws FtpException, StorageException {
        List<String> files = new ArrayList<>();
        collect(storage, directory, "", files, 0);
        byte[][] keys = new byte[files.size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = files.get(i).getBytes(StandardCharsets.UTF_8);
        }
        Integer[] order = new Integer[keys.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        String[] paths = new String[order.length];
        for (int i = 0; i < order.length; i++) {
            paths[i] = VirtualPaths.resolve(directory, files.get(order[i]));
        }
        String[] hashes;
        try {
            hashes =
                    Arrays.stream(paths).parallel().map(p -> sha256(storage, p)).toArray(String[]::new);
        } catch (UncheckedIOException e) {
            throw e.getCause() instanceof StorageException se ? se : StorageException.from(e.getCause(), directory);
        }
        MessageDigest manifest = newSha256();
        for (int i = 0; i < order.length; i++) {
            manifest.update((hashes[i] + "  ./" + files.get(order[i]) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(manifest.digest());
    }

    private static void collect(
            StorageInterface storage, String directory, String prefix, List<String> files, int depth)
            throws FtpException, StorageException {
        if (depth > MAX_DEPTH) {
            throw new FtpException(550, "Directory tree deeper than " + MAX_DEPTH + " levels.");
        }
        for (FileStat entry : storage.list(prefix.isEmpty() ? directory : VirtualPaths.resolve(directory, prefix))) {
            String relative = prefix.isEmpty() ? entry.name() : prefix + "/" + entry.name();
            if (entry.isFile()) {
                files.add(relative);
            } else if (entry.isDirectory()) {
                collect(storage, directory, relative, files, depth + 1);
            }
        }
    }

    private static String sha256(StorageInterface storage, String path) {
        try (FileChannel channel = storage.openForRead(path)) {
            return Checksums.compute("SHA256", channel, 0, channel.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }
}
