package org.ferry.mover.server.tar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.PosixStorage;

/**
 * Properties of {@link TarBatchExtractor} (ESTO TAR) against hostile input: archives built from
 * random entries (plain names, names with {@code ..}, slashes or absolute paths, symbolic and hard
 * links, directories, devices, names of links planted in the target pointing out of the root),
 * then corrupted at random (bytes flipped, truncated, garbage appended), and plain garbage. Every
 * outcome is 226 or an FTP error reply, never another exception; nothing outside the target
 * directory changes; a file inside it is either one the archive named plainly or was there before.
 * 400 archives, fixed seed.
 */
class TarBatchExtractorFuzzTest {

    private Path base;
    private Path root;
    private Path target;
    private Path outside;

    @BeforeProperty
    void layout() throws IOException {
        base = Files.createTempDirectory("tar-fuzz");
        root = Files.createDirectory(base.resolve("root"));
        target = Files.createDirectory(root.resolve("in"));
        Files.writeString(root.resolve("sibling"), "sibling");
        outside = Files.createDirectory(base.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "secret");
    }

    @AfterProperty
    void cleanUp() throws IOException {
        try (Stream<Path> paths = Files.walk(base)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Property(tries = 400, seed = "20261123")
    void hostileArchivesNeverLeaveTheDirectory(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int corruption)
            throws IOException {
        Random random = new Random(seed);
        resetTarget(random);
        byte[] archive = corruption == 3 ? garbage(random) : corrupt(archive(random), corruption, random);
        TarBatchExtractor extractor = new TarBatchExtractor(new PosixStorage(root));
        try {
            extractor.extract("/in", new java.io.ByteArrayInputStream(archive));
        } catch (FtpException e) {
            assertThat(e.reply().code()).isBetween(400, 599);
        } catch (IOException e) {
            // storage refusals are mapped to replies by the dispatcher; they must be storage errors
            assertThat(e).isInstanceOf(org.ferry.mover.storage.StorageException.class);
        }
        assertThat(Files.readString(outside.resolve("secret"))).isEqualTo("secret");
        assertThat(Files.readString(root.resolve("sibling"))).isEqualTo("sibling");
        try (Stream<Path> all = Files.list(outside)) {
            assertThat(all.map(p -> p.getFileName().toString())).containsExactly("secret");
        }
        try (Stream<Path> all = Files.list(root)) {
            assertThat(all.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("in", "sibling");
        }
        try (Stream<Path> all = Files.walk(target)) {
            for (Path p : all.filter(p -> !p.equals(target)).toList()) {
                assertThat(p.getParent())
                        .as("nothing below a subdirectory: %s", p)
                        .isEqualTo(target);
                assertThat(Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .as("%s", p)
                        .isFalse();
            }
        }
    }

    /** An empty target with, sometimes, links planted in it: one out of the root, one to a sibling. */
    private void resetTarget(Random random) throws IOException {
        try (Stream<Path> paths = Files.walk(target)) {
            for (Path p : paths.sorted(Comparator.reverseOrder())
                    .filter(p -> !p.equals(target))
                    .toList()) {
                Files.delete(p);
            }
        }
        if (random.nextBoolean()) {
            Files.createSymbolicLink(target.resolve("trap"), outside.resolve("secret"));
            Files.createSymbolicLink(target.resolve("up"), root.resolve("sibling"));
        }
    }

    private static final String[] NAMES = {
        "a",
        "b c",
        "trap",
        "up",
        "..",
        ".",
        "../escape",
        "/abs",
        "sub/x",
        "../../outside/secret",
        "ünï",
        "",
        "x/../../y",
        "in",
        "./z"
    };

    private static byte[] archive(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            int entries = random.nextInt(6);
            for (int i = 0; i < entries; i++) {
                String name = NAMES[random.nextInt(NAMES.length)];
                TarArchiveEntry entry = switch (random.nextInt(6)) {
                    case 0 -> new TarArchiveEntry(name, TarConstants.LF_SYMLINK, true);
                    case 1 -> new TarArchiveEntry(name, TarConstants.LF_LINK, true);
                    case 2 -> new TarArchiveEntry(name.isEmpty() ? "d/" : name + "/", TarConstants.LF_DIR, true);
                    case 3 -> new TarArchiveEntry(name, TarConstants.LF_CHR, true);
                    default -> new TarArchiveEntry(name, true);
                };
                if (entry.isSymbolicLink() || entry.isLink()) {
                    entry.setLinkName(random.nextBoolean() ? "../../outside/secret" : "/etc/passwd");
                }
                byte[] content = new byte
                        [entry.isFile() && !entry.isSymbolicLink() && !entry.isLink() && !entry.isCharacterDevice()
                                ? random.nextInt(3000)
                                : 0];
                random.nextBytes(content);
                entry.setSize(content.length);
                tar.putArchiveEntry(entry);
                tar.write(content);
                tar.closeArchiveEntry();
            }
        } catch (IOException | IllegalArgumentException e) {
            // Commons Compress refuses some names itself (e.g. empty): fall back to garbage
            return "refused by the writer".getBytes(StandardCharsets.US_ASCII);
        }
        return out.toByteArray();
    }

    private static byte[] corrupt(byte[] archive, int corruption, Random random) {
        switch (corruption) {
            case 1 -> {
                byte[] copy = archive.clone();
                for (int i = 0; i < 1 + random.nextInt(8) && copy.length > 0; i++) {
                    copy[random.nextInt(copy.length)] ^= (byte) (1 + random.nextInt(255));
                }
                return copy;
            }
            case 2 -> {
                return java.util.Arrays.copyOf(archive, random.nextInt(archive.length + 1));
            }
            default -> {
                return archive;
            }
        }
    }

    private static byte[] garbage(Random random) {
        byte[] bytes = new byte[random.nextInt(4096)];
        random.nextBytes(bytes);
        return bytes;
    }
}
