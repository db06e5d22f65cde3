package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The contract against the JDK's default file system: proves the cases themselves right. */
class DefaultFileSystemContractTest extends FileSystemContract {

    @TempDir
    static Path root;

    @Override
    protected Path newDirectory(String name) throws IOException {
        return Files.createDirectory(root.resolve(name));
    }

    @Override
    protected Path local(Path path) {
        return path;
    }
}
