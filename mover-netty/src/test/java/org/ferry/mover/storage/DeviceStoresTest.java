package org.ferry.mover.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store of a path by its device: the same store the JDK's mount table lookup gives, found
 * once per device (not once per call), for files on two file systems (the temporary directory and
 * Linux's /dev/shm).
 */
class DeviceStoresTest {

    @TempDir
    Path tmp;

    @Test
    void givesTheJdksStoreAndLooksItUpOncePerDevice() throws IOException {
        Path shm = Files.createTempDirectory(Path.of("/dev/shm"), "device-stores-");
        try {
            DeviceStores stores = new DeviceStores();
            Path a = Files.writeString(tmp.resolve("a"), "a");
            Path b = Files.createDirectory(tmp.resolve("b"));
            Path c = Files.writeString(shm.resolve("c"), "c");
            assertThat(stores.store(a)).isEqualTo(Files.getFileStore(a));
            assertThat(stores.store(c)).isEqualTo(Files.getFileStore(c));
            // the same object for every path of one device: the mount table is read once per device
            assertThat(stores.store(b)).isSameAs(stores.store(a));
            assertThat(stores.store(shm)).isSameAs(stores.store(c));
            if (!Files.getAttribute(a, "unix:dev").equals(Files.getAttribute(c, "unix:dev"))) {
                assertThat(stores.store(a)).isNotEqualTo(stores.store(c));
            }
            assertThat(stores.usableSpace(c)).isPositive();
        } finally {
            Files.deleteIfExists(shm.resolve("c"));
            Files.deleteIfExists(shm);
        }
    }

    @Test
    void aMissingPathFailsWithTheJdksError() {
        assertThatThrownBy(() -> new DeviceStores().usableSpace(tmp.resolve("gone")))
                .isInstanceOf(NoSuchFileException.class);
    }
}
