package org.ferry.mover.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RootedPathResolverTest {

    @TempDir
    Path tmp;

    @Test
    void virtualPathsNormaliseAndRefuseClimbingAboveRoot() throws Exception {
        assertThat(VirtualPaths.resolve("/a", "b/./c")).isEqualTo("/a/b/c");
        assertThat(VirtualPaths.resolve("/a/b", "..")).isEqualTo("/a");
        assertThat(VirtualPaths.resolve("/a", "/x//y/")).isEqualTo("/x/y");
        assertThat(VirtualPaths.resolve("/a", "")).isEqualTo("/a");
        assertThatThrownBy(() -> VirtualPaths.resolve("/", "..")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> VirtualPaths.resolve("/a", "/../../etc/passwd"))
                .isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> VirtualPaths.resolve("/", "a/../../b")).isInstanceOf(StorageException.class);
    }

    @Test
    void symlinksOutOfTheRootAreRefused() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        Path outside = Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.createDirectory(root.resolve("dir"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("outdir"), tmp);
        Files.createSymbolicLink(root.resolve("dangling"), tmp.resolve("nothing-here"));
        Files.createSymbolicLink(root.resolve("in"), root.resolve("dir"));
        RootedPathResolver resolver = new RootedPathResolver(root);

        assertThat(resolver.resolve("/")).isEqualTo(root.toRealPath());
        assertThat(resolver.resolve("/in/new.txt")).isEqualTo(root.toRealPath().resolve("dir/new.txt"));
        assertThat(resolver.resolve("/dir/a/b")).isEqualTo(root.toRealPath().resolve("dir/a/b"));
        assertThatThrownBy(() -> resolver.resolve("/out")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> resolver.resolve("/outdir/secret.txt")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> resolver.resolve("/outdir/new-file")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> resolver.resolve("/dangling")).isInstanceOf(StorageException.class);
    }

    @Test
    void listingDoesNotFollowLinksOutOfTheRoot() throws Exception {
        Path root = Files.createDirectory(tmp.resolve("root"));
        Files.writeString(tmp.resolve("big.bin"), "x".repeat(1000));
        Files.createSymbolicLink(root.resolve("out"), tmp.resolve("big.bin"));
        Files.writeString(root.resolve("a.txt"), "hello");
        PosixStorage storage = new PosixStorage(root);
        var entries = storage.list("/");
        assertThat(entries).extracting(FileStat::name).containsExactly("a.txt", "out");
        assertThat(entries.get(1).type()).isEqualTo(org.ferry.mover.protocol.FileInfo.Type.SYMLINK);
        assertThat(entries.get(1).sizeBytes()).isNotEqualTo(1000);
    }
}
