package org.ferry.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.SplittableRandom;

/** Builds the directory trees the end-to-end tests move. */
final class TestTrees {

    private TestTrees() {}

    /**
     * Generates a tree with nested directories, empty files, empty directories, names with spaces
     * and UTF-8, {@code smallFiles} small files of varied sizes (0 to 64 KiB) spread over
     * subdirectories, and one large random file.
     *
     * @param root directory to fill (created if missing)
     * @param smallFiles number of small files
     * @param largeFileBytes size of the large file in bytes
     * @param seed random seed, so a failure can be reproduced
     */
    static void generate(Path root, int smallFiles, long largeFileBytes, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        Files.createDirectories(root.resolve("empty dir"));
        Files.createDirectories(root.resolve("nested/deeper/deepest/empty"));
        Files.createFile(root.resolve("empty file"));
        Files.createFile(root.resolve("nested/deeper/deepest/zero-bytes.dat"));
        Path utf8 = Files.createDirectories(root.resolve("données été/日本語 ディレクトリ"));
        Files.writeString(utf8.resolve("naïve café ☕.txt"), "grüße, 世界\n", StandardCharsets.UTF_8);
        Files.writeString(root.resolve("nested/file with  two  spaces.txt"), "spaces\n");
        for (int i = 0; i < smallFiles; i++) {
            Path dir = root.resolve("small/group " + (i % 20)).resolve("sub" + (i % 3));
            Files.createDirectories(dir);
            byte[] data = new byte[random.nextInt(64 * 1024 + 1)];
            random.nextBytes(data);
            Files.write(dir.resolve("file-" + i + ".bin"), data);
        }
        writeRandom(root.resolve("large/large file.bin"), largeFileBytes, random);
    }

    /**
     * Generates a tree whose names are all ASCII (globus-gridftp-server drops other bytes from
     * clear-text paths): nested and empty directories, empty files, a name with spaces,
     * {@code smallFiles} small files (0 to 32 KiB) spread over subdirectories, and one random file
     * of each size in {@code bigFileBytes} under {@code big/}.
     *
     * @param root directory to fill (created if missing)
     * @param smallFiles number of small files
     * @param bigFileBytes sizes of the big files
     * @param seed random seed, so a failure can be reproduced
     */
    static void generateAscii(Path root, int smallFiles, long[] bigFileBytes, long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        Files.createDirectories(root.resolve("empty"));
        Files.createDirectories(root.resolve("a/b/c/empty-too"));
        Files.createFile(root.resolve("empty.dat"));
        Files.createFile(root.resolve("a/b/c/zero.dat"));
        Files.writeString(root.resolve("a/name with spaces.txt"), "spaces\n");
        for (int i = 0; i < smallFiles; i++) {
            Path dir = Files.createDirectories(root.resolve("small/g" + (i % 7)).resolve("sub" + (i % 2)));
            byte[] data = new byte[random.nextInt(32 * 1024 + 1)];
            random.nextBytes(data);
            Files.write(dir.resolve("f" + i + ".bin"), data);
        }
        for (int i = 0; i < bigFileBytes.length; i++) {
            writeRandom(root.resolve("big/big-" + i + ".bin"), bigFileBytes[i], random);
        }
    }

    private static void writeRandom(Path file, long bytes, SplittableRandom random) throws IOException {
        Files.createDirectories(file.getParent());
        byte[] block = new byte[1 << 20];
        try (FileChannel channel =
                FileChannel.open(file, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
            long left = bytes;
            while (left > 0) {
                random.nextBytes(block);
                ByteBuffer buffer = ByteBuffer.wrap(block, 0, (int) Math.min(block.length, left));
                left -= buffer.remaining();
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        }
    }

    /**
     * Copies a real directory tree of the system into {@code target}, following symbolic links
     * (the endpoint refuses links that leave its root) and skipping what cannot be read.
     *
     * @return number of regular files copied
     */
    static int copyRealTree(Path source, Path target) throws IOException {
        int[] files = {0};
        Files.walkFileTree(
                source, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                        Files.createDirectories(
                                target.resolve(source.relativize(dir).toString()));
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                        if (attrs.isRegularFile() && Files.isReadable(file)) {
                            Files.copy(
                                    file,
                                    target.resolve(source.relativize(file).toString()),
                                    StandardCopyOption.COPY_ATTRIBUTES);
                            files[0]++;
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE; // broken links, loops, unreadable entries
                    }
                });
        return files[0];
    }
}
