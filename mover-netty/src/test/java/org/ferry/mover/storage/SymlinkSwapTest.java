package org.ferry.mover.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A symbolic link swapped in after the root check and before the open (TOCTOU) must not lead out
 * of the root. The swap happens deterministically in {@link PosixStorage}'s before-open hook, or
 * between {@link RootedPathResolver#resolve} and {@link RootedPathResolver#open}: a directory on the
 * path, or the file itself, is replaced by a link to the outside. The storage's own operations and a
 * session's view ({@link StorageInterface#forSession}, which opens by the path as spelled with
 * O_NOFOLLOW and keeps the directory open) must both hold.
 */
class SymlinkSwapTest {

    @TempDir
    Path tmp;

    Path root;
    Path outside;

    @BeforeEach
    void layout() throws Exception {
        root = Files.createDirectory(tmp.resolve("root"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "top secret");
        Files.createDirectories(root.resolve("d/e"));
        Files.writeString(root.resolve("d/e/secret.txt"), "harmless");
        Files.writeString(root.resolve("plain.txt"), "harmless");
    }

    /** Replaces {@code inside} (a file or directory) by a symbolic link to {@code target}. */
    private static void swap(Path inside, Path target) {
        try {
            Path moved = inside.resolveSibling(inside.getFileName() + ".moved");
            Files.move(inside, moved, StandardCopyOption.ATOMIC_MOVE);
            Files.createSymbolicLink(inside, target);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The storage, or a session's view of it (the fast way: the directory kept open, O_NOFOLLOW walk). */
    private StorageInterface storage(boolean session, Consumer<String> beforeOpen) throws Exception {
        PosixStorage storage = new PosixStorage(root, beforeOpen);
        return session ? storage.forSession() : storage;
    }

    @ParameterizedTest(name = "session view {0}")
    @ValueSource(booleans = {false, true})
    void aDirectorySwappedForALinkBeforeTheReadIsRefused(boolean session) throws Exception {
        StorageInterface storage = storage(session, path -> swap(root.resolve("d/e"), outside));
        assertThatThrownBy(() -> storage.openForRead("/d/e/secret.txt"))
                .isInstanceOf(StorageException.class)
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
    }

    @ParameterizedTest(name = "session view {0}")
    @ValueSource(booleans = {false, true})
    void aTopDirectorySwappedBeforeTheWriteIsRefusedAndNothingOutsideChanges(boolean session) throws Exception {
        StorageInterface storage = storage(session, path -> swap(root.resolve("d"), outside.getParent()));
        // d -> tmp: /d/e/secret.txt would now be tmp/e/secret.txt; /d/outside/secret.txt is the secret
        Files.createDirectories(outside.getParent().resolve("e"));
        assertThatThrownBy(() -> storage.openForWrite("/d/e/secret.txt", 0)).isInstanceOf(StorageException.class);
        assertThat(outside.getParent().resolve("e/secret.txt")).doesNotExist();
        assertThat(outside.resolve("secret.txt")).hasContent("top secret");
    }

    @ParameterizedTest(name = "session view {0}")
    @ValueSource(booleans = {false, true})
    void theFileSwappedForALinkBeforeTheWriteIsRefused(boolean session) throws Exception {
        StorageInterface storage =
                storage(session, path -> swap(root.resolve("plain.txt"), outside.resolve("secret.txt")));
        assertThatThrownBy(() -> storage.openForWrite("/plain.txt", 0))
                .isInstanceOf(StorageException.class)
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
        assertThat(outside.resolve("secret.txt")).hasContent("top secret"); // not truncated
    }

    @ParameterizedTest(name = "session view {0}")
    @ValueSource(booleans = {false, true})
    void aNewFileWhoseDirectoryIsSwappedIsNotCreatedOutside(boolean session) throws Exception {
        StorageInterface storage = storage(session, path -> swap(root.resolve("d"), outside));
        assertThatThrownBy(() -> storage.openForWrite("/d/new.txt", 0)).isInstanceOf(StorageException.class);
        assertThat(outside.resolve("new.txt")).doesNotExist();
    }

    @Test
    void theOpenPrimitiveRefusesALinkSwappedAfterResolve() throws Exception {
        RootedPathResolver resolver = new RootedPathResolver(root);
        Path real = resolver.resolve("/d/e/secret.txt");
        swap(root.resolve("d"), outside.getParent());
        Files.createDirectories(outside.getParent().resolve("e"));
        Files.writeString(outside.getParent().resolve("e/secret.txt"), "outside, via the swapped link");
        assertThatThrownBy(() -> resolver.open(real, "/d/e/secret.txt", Set.of(StandardOpenOption.READ)))
                .isInstanceOf(StorageException.class);
    }

    @ParameterizedTest(name = "session view {0}")
    @ValueSource(booleans = {false, true})
    void withoutASwapReadingAndWritingWorkAndLinksInsideTheRootAreFollowed(boolean session) throws Exception {
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("d"));
        StorageInterface storage = storage(session, path -> {});
        try (FileChannel in = storage.openForRead("/alias/e/secret.txt")) {
            ByteBuffer buffer = ByteBuffer.allocate(100);
            in.read(buffer);
            assertThat(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8))
                    .isEqualTo("harmless");
        }
        try (FileChannel out = storage.openForWrite("/alias/e/new.txt", 0)) {
            out.write(ByteBuffer.wrap("new".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(root.resolve("d/e/new.txt")).hasContent("new");
        try (FileChannel out = storage.openForWrite("/plain.txt", 3)) {
            assertThat(out.size()).isEqualTo(3);
        }
        assertThat(root.resolve("plain.txt")).hasContent("har");
        assertThatThrownBy(() -> storage.openForRead("/d")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> storage.openForRead("/missing.txt"))
                .isInstanceOf(StorageException.class)
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.NOT_FOUND);
        assertThatThrownBy(() -> storage.openForWrite("/nodir/x.txt", 0))
                .isInstanceOf(StorageException.class)
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.NOT_FOUND);
    }
}
