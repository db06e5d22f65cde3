package org.ferry.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Test data on disk: files of pseudo-random bytes, directories the globus anonymous user can use. */
final class Scratch {

    private Scratch() {}

    /** Creates {@code dir} (and parents) mode 755 so that gsuser can traverse it. */
    static Path directory(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Path p = dir; p != null && !p.toString().equals("/"); p = p.getParent()) {
            if (p.startsWith(Path.of("/var/tmp")) && !p.equals(Path.of("/var/tmp"))) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /** Creates an empty directory that gsuser (the globus anonymous user) owns and can write. */
    static Path writableByGlobus(Path dir) throws IOException, InterruptedException {
        deleteTree(dir);
        directory(dir);
        Command.check(java.util.List.of("chown", "gsuser:gsuser", dir.toString()), 30);
        return dir;
    }

    /**
     * Writes {@code bytes} pseudo-random bytes (not zeros: no file system or page cache shortcut)
     * unless the file already has that size, mode 644.
     */
    static void file(Path file, long bytes, long seed) throws IOException {
        if (Files.isRegularFile(file) && Files.size(file) == bytes) {
            return;
        }
        byte[] block = new byte[(int) Math.min(bytes, 1 << 20)];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < block.length; i += 8) {
            long value = random.nextLong();
            for (int j = 0; j < 8 && i + j < block.length; j++) {
                block[i + j] = (byte) (value >>> (8 * j));
            }
        }
        try (FileChannel out = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            long written = 0;
            while (written < bytes) {
                // vary each block so that no two blocks of the file are equal
                if (block.length > 1) { // a 1-byte file has one random byte
                    block[0] = (byte) (written >>> 20);
                    block[1] = (byte) (written >>> 28);
                }
                ByteBuffer buffer = ByteBuffer.wrap(block, 0, (int) Math.min(block.length, bytes - written));
                while (buffer.hasRemaining()) {
                    written += out.write(buffer);
                }
            }
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }

    /** Deletes a directory tree if it exists. */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * Writes dirty pages out and drops the page cache, so that a disk benchmark reads from disk;
     * does nothing (and says so) where /proc/sys/vm/drop_caches is not writable.
     *
     * @return true if the cache was dropped
     */
    static boolean dropCaches() throws IOException, InterruptedException {
        Command.run(java.util.List.of("sync"), 120);
        Path dropCaches = Path.of("/proc/sys/vm/drop_caches");
        try {
            Files.writeString(dropCaches, "3\n");
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
