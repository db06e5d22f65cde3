package org.ferry.mover.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MountedStorageTest {
    @TempDir
    Path tmp;

    private Path data;
    private Path papers;
    private MountedStorage storage;

    @BeforeEach
    void mount() throws Exception {
        data = Files.createDirectories(tmp.resolve("home/data"));
        papers = Files.createDirectories(tmp.resolve("home/papers"));
        Files.writeString(papers.resolve("a.txt"), "paper");
        Files.writeString(tmp.resolve("home/secret"), "secret");
        Files.createSymbolicLink(data.resolve("out"), tmp.resolve("home/secret"));
        storage = new MountedStorage(List.of(
                new MountedStorage.Mount("data", data, false), new MountedStorage.Mount("papers", papers, true)));
    }

    @Test
    void theRootListsTheSharedDirectoriesByName() throws Exception {
        assertThat(storage.stat("/").isDirectory()).isTrue();
        assertThat(storage.list("/")).extracting(FileStat::name).containsExactly("data", "papers");
        assertThat(storage.stat("/papers").name()).isEqualTo("papers");
        assertThat(storage.stat("/papers").writable()).isFalse();
        assertThat(storage.stat("/data").writable()).isTrue();
        assertThat(storage.list("/papers")).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("a.txt");
            assertThat(e.writable()).isFalse();
        });
        assertThatThrownBy(() -> storage.stat("/home"))
                .isInstanceOfSatisfying(
                        StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(StorageException.Reason.NOT_FOUND));
    }

    /**
     * ALLO at the root (a client whose working directory is "/", as movers' are) announces a file
     * whose mount is not named yet: the space of the writable mounts, not none (which refused every
     * ALLO, so every file of 64 MiB and more, into an agent); a read-only mount has none.
     */
    @Test
    void theRootHasTheSpaceOfTheWritableMounts() throws Exception {
        assertThat(Files.getFileStore(data).getUsableSpace()).isPositive();
        assertThat(storage.usableSpaceBytes("/")).isPositive();
        assertThat(storage.usableSpaceBytes("/papers/x.bin")).isZero();
        MountedStorage readOnly = new MountedStorage(List.of(new MountedStorage.Mount("papers", papers, true)));
        assertThat(readOnly.usableSpaceBytes("/")).isZero();
    }

    @Test
    void aReadWriteMountTakesFilesAndNothingLeavesIt() throws Exception {
        try (FileChannel out = storage.openForWrite("/data/new.bin", 0)) {
            out.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)));
        }
        assertThat(Files.readString(data.resolve("new.bin"))).isEqualTo("hello");
        storage.createDirectory("/data/sub");
        storage.rename("/data/new.bin", "/data/sub/moved.bin");
        assertThat(data.resolve("sub/moved.bin")).exists();
        assertThatThrownBy(() -> storage.openForRead("/data/out"))
                .isInstanceOfSatisfying(
                        StorageException.class,
                        e -> assertThat(e.reason()).isEqualTo(StorageException.Reason.PERMISSION_DENIED));
        assertThatThrownBy(() -> storage.rename("/data/sub/moved.bin", "/papers/moved.bin"))
                .isInstanceOf(StorageException.class);
        assertThat(papers.resolve("moved.bin")).doesNotExist();
    }

    @Test
    void aReadOnlyMountAndTheMountPointsRefuseEveryChange() throws Exception {
        try (FileChannel in = storage.openForRead("/papers/a.txt")) {
            assertThat(in.size()).isEqualTo(5);
        }
        List<ThrowingAction> changes = List.of(
                () -> storage.openForWrite("/papers/b.txt", 0).close(),
                () -> storage.openForWrite("/papers/a.txt", 0).close(),
                () -> storage.createDirectory("/papers/d"),
                () -> storage.delete("/papers/a.txt"),
                () -> storage.rename("/papers/a.txt", "/papers/c.txt"),
                () -> storage.setPermissions("/papers/a.txt", 0777),
                () -> storage.setModified("/papers/a.txt", Instant.EPOCH),
                () -> storage.directory("/papers").create("t.txt").close(),
                () -> storage.createDirectory("/newtop"),
                () -> storage.removeDirectory("/data"),
                () -> storage.rename("/data", "/data2"));
        for (ThrowingAction change : changes) {
            assertThatThrownBy(change::run)
                    .isInstanceOfSatisfying(
                            StorageException.class,
                            e -> assertThat(e.reason()).isEqualTo(StorageException.Reason.PERMISSION_DENIED));
        }
        assertThat(papers).isDirectoryContaining(p -> p.getFileName().toString().equals("a.txt"));
        assertThat(Files.readString(papers.resolve("a.txt"))).isEqualTo("paper");
        try (var stream = Files.list(papers)) {
            assertThat(stream.count()).isEqualTo(1);
        }
        assertThat(data).exists();
    }

    @Test
    void namesAndDirectoriesAreChecked() throws Exception {
        assertThatThrownBy(() -> new MountedStorage.Mount("a/b", data, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MountedStorage(List.of(
                        new MountedStorage.Mount("x", data, false), new MountedStorage.Mount("x", papers, true))))
                .hasMessageContaining("two shared directories");
        assertThat(MountedStorage.problem(new MountedStorage.Mount("m", tmp.resolve("missing"), true)))
                .contains("does not exist");
        assertThat(MountedStorage.problem(new MountedStorage.Mount("f", tmp.resolve("home/secret"), true)))
                .contains("not a directory");
        assertThat(MountedStorage.problem(new MountedStorage.Mount("d", data, false)))
                .isNull();
    }

    @FunctionalInterface
    interface ThrowingAction {
        void run() throws Exception;
    }
}
