package org.ferry.mover.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's view of a {@link PosixStorage} keeps a batch's directory open between files: what it
 * opens, what a batch sees of renames and links, and that after {@link StorageInterface#endBatch} the
 * kept directory serves again only if its path still leads to it through no link; after {@link
 * StorageInterface#batchPaused} only once its last check is older than {@link
 * PosixSessionStorage#PAUSE_TRUST}.
 */
class PosixSessionStorageTest {

    @TempDir
    Path tmp;

    Path root;
    Path outside;
    StorageInterface session;

    @BeforeEach
    void layout() throws Exception {
        root = Files.createDirectory(tmp.resolve("root"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "top secret");
        Files.createDirectories(root.resolve("d/e"));
        Files.writeString(root.resolve("d/e/a.txt"), "first");
        Files.writeString(root.resolve("d/e/b.txt"), "second!");
        session = new PosixStorage(root).forSession();
    }

    private static String read(FileChannel channel) throws Exception {
        try (channel) {
            ByteBuffer buffer = ByteBuffer.allocate(100);
            channel.read(buffer, 0);
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsWithTheSizeOfOneStatAndWritesNewAndExistingFiles() throws Exception {
        StorageInterface.OpenFile a = session.openForReading("/d/e/a.txt");
        assertThat(a.sizeBytes()).isEqualTo(5);
        assertThat(read(a.channel())).isEqualTo("first");
        assertThat(session.openForReading("/d/e/b.txt").sizeBytes()).isEqualTo(7);
        try (FileChannel out = session.openForWrite("/d/e/new.txt", 0)) {
            out.write(ByteBuffer.wrap("new".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(root.resolve("d/e/new.txt")).hasContent("new");
        session.openForWrite("/d/e/b.txt", 3).close(); // cut to the restart offset
        assertThat(root.resolve("d/e/b.txt")).hasContent("sec");
        session.openForWrite("/d/e/b.txt", Long.MAX_VALUE).close(); // MODE E restart: kept
        assertThat(root.resolve("d/e/b.txt")).hasContent("sec");
        session.openForWrite("/d/e/b.txt", 0).close();
        assertThat(root.resolve("d/e/b.txt")).hasContent("");
    }

    @Test
    void failuresAreNamedAsTheStorageNamesThem() throws Exception {
        assertThatThrownBy(() -> session.openForReading("/d/e/missing.txt"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.NOT_FOUND);
        assertThatThrownBy(() -> session.openForReading("/d/e"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.IS_A_DIRECTORY);
        assertThatThrownBy(() -> session.openForReading("/"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.IS_A_DIRECTORY);
        assertThatThrownBy(() -> session.openForWrite("/d/e", 0))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.IS_A_DIRECTORY);
        assertThatThrownBy(() -> session.openForWrite("/d/nodir/x.txt", 0))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.NOT_FOUND);
        // the batch goes on after a failure
        assertThat(read(session.openForRead("/d/e/a.txt"))).isEqualTo("first");
    }

    @Test
    void linksOutOfTheRootAreRefusedAndLinksInsideItFollowedTheFullWay() throws Exception {
        Files.createSymbolicLink(root.resolve("d/e/out.txt"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("outdir"), outside);
        Files.createSymbolicLink(root.resolve("d/e/in.txt"), root.resolve("d/e/a.txt"));
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("d"));
        assertThatThrownBy(() -> session.openForRead("/d/e/out.txt"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
        assertThatThrownBy(() -> session.openForWrite("/d/e/out.txt", 0))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
        assertThat(outside.resolve("secret.txt")).hasContent("top secret");
        assertThatThrownBy(() -> session.openForWrite("/outdir/new.txt", 0))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
        assertThat(outside.resolve("new.txt")).doesNotExist();
        assertThat(read(session.openForRead("/d/e/in.txt"))).isEqualTo("first");
        assertThat(session.openForReading("/alias/e/b.txt").sizeBytes()).isEqualTo(7);
        session.openForWrite("/alias/e/via-link.txt", 0).close();
        assertThat(root.resolve("d/e/via-link.txt")).exists();
    }

    @Test
    void aBatchKeepsItsDirectoryUntilItEndsAndThenSeesASwapForALink() throws Exception {
        assertThat(read(session.openForRead("/d/e/a.txt"))).isEqualTo("first");
        // swapped during the batch: the kept directory is the one that was there, inside the root
        Files.move(root.resolve("d/e"), root.resolve("d/e.moved"), StandardCopyOption.ATOMIC_MOVE);
        Files.createSymbolicLink(root.resolve("d/e"), outside);
        Files.writeString(outside.resolve("b.txt"), "outside");
        assertThat(read(session.openForRead("/d/e/b.txt"))).isEqualTo("second!");
        session.openForWrite("/d/e/c.txt", 0).close();
        assertThat(root.resolve("d/e.moved/c.txt")).exists();
        assertThat(outside.resolve("c.txt")).doesNotExist();
        // the next batch looks again: the link leads out of the root
        session.endBatch();
        assertThatThrownBy(() -> session.openForRead("/d/e/b.txt"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
        assertThatThrownBy(() -> session.openForWrite("/d/e/d.txt", 0)).isInstanceOf(StorageException.class);
        assertThat(outside.resolve("d.txt")).doesNotExist();
    }

    @Test
    void aDirectoryRenamedBetweenBatchesIsLookedUpAgain() throws Exception {
        session.openForWrite("/d/e/one.txt", 0).close();
        session.endBatch();
        Files.move(root.resolve("d/e"), root.resolve("d/old"), StandardCopyOption.ATOMIC_MOVE);
        Files.createDirectory(root.resolve("d/e"));
        session.openForWrite("/d/e/two.txt", 0).close();
        assertThat(root.resolve("d/e/two.txt")).exists();
        assertThat(root.resolve("d/old/two.txt")).doesNotExist();
        assertThat(root.resolve("d/old/one.txt")).exists();
        // the same directory after the end of a batch: still served; after release, opened again
        session.endBatch();
        session.openForWrite("/d/e/three.txt", 0).close();
        session.release();
        session.openForWrite("/d/e/four.txt", 0).close();
        assertThat(root.resolve("d/e/three.txt")).exists();
        assertThat(root.resolve("d/e/four.txt")).exists();
    }

    @Test
    void aPausedBatchChecksItsDirectoryAgainOnlyWhenTheLastCheckIsOlderThanTheWindow() throws Exception {
        AtomicLong nanos = new AtomicLong();
        StorageInterface paused = new PosixStorage(root).forSession(nanos::get);
        assertThat(read(paused.openForRead("/d/e/a.txt"))).isEqualTo("first");
        Files.move(root.resolve("d/e"), root.resolve("d/old"), StandardCopyOption.ATOMIC_MOVE);
        Files.createDirectory(root.resolve("d/e"));
        Files.writeString(root.resolve("d/e/a.txt"), "renewed");
        // a pause right after the check: the kept directory serves on unchecked
        paused.batchPaused();
        nanos.addAndGet(PosixSessionStorage.PAUSE_TRUST.toNanos());
        assertThat(read(paused.openForRead("/d/e/a.txt"))).isEqualTo("first");
        // a pause after the window: checked, and the path now names another directory
        paused.batchPaused();
        nanos.addAndGet(PosixSessionStorage.PAUSE_TRUST.toNanos() + 1);
        assertThat(read(paused.openForRead("/d/e/a.txt"))).isEqualTo("renewed");
        // the end of a batch checks whatever the clock says
        Files.move(root.resolve("d/e"), root.resolve("d/newer"), StandardCopyOption.ATOMIC_MOVE);
        Files.createSymbolicLink(root.resolve("d/e"), outside);
        paused.endBatch();
        assertThatThrownBy(() -> paused.openForRead("/d/e/secret.txt"))
                .extracting(e -> ((StorageException) e).reason())
                .isEqualTo(StorageException.Reason.PERMISSION_DENIED);
    }
}
