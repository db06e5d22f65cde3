package org.ferry.mover.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PosixStorage#list}: each entry's type from its mode, read and write as access(2) answers
 * for the same path, links inside the root listed as their targets and links out of it claiming
 * nothing.
 */
class PosixStorageListTest {

    @TempDir
    Path root;

    @TempDir
    Path outside;

    @Test
    void aListingGivesTypesFromTheModeAndReadAndWriteAsAccessWould() throws Exception {
        String[] modes = {"---------", "r--------", "-w-------", "rw-r--r--", "------rw-"};
        for (String perms : modes) {
            Path file = Files.writeString(root.resolve("f" + perms.replace('-', '_')), "x");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
        }
        Path dir = Files.createDirectory(root.resolve("d"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-x------"));
        Files.createSymbolicLink(root.resolve("inside"), root.resolve("frw_r__r__"));
        Files.createSymbolicLink(root.resolve("away"), Files.writeString(outside.resolve("secret"), "s"));

        Map<String, FileStat> listed = new PosixStorage(root)
                .list("/").stream().collect(Collectors.toMap(FileStat::name, Function.identity()));

        for (String perms : modes) {
            Path file = root.resolve("f" + perms.replace('-', '_'));
            FileStat stat = listed.get(file.getFileName().toString());
            assertEquals(FileInfo.Type.FILE, stat.type(), perms);
            assertEquals(Files.isReadable(file), stat.readable(), perms + " read");
            assertEquals(Files.isWritable(file), stat.writable(), perms + " write");
        }
        assertEquals(FileInfo.Type.DIRECTORY, listed.get("d").type());
        assertEquals(Files.isReadable(dir), listed.get("d").readable());
        assertEquals(Files.isWritable(dir), listed.get("d").writable());
        // a link inside the root is listed as what it points to
        assertEquals(FileInfo.Type.FILE, listed.get("inside").type());
        assertEquals(
                Files.isReadable(root.resolve("inside")), listed.get("inside").readable());
        // a link out of the root is not followed, and claims neither read nor write
        FileStat away = listed.get("away");
        assertEquals(FileInfo.Type.SYMLINK, away.type());
        assertFalse(away.readable());
        assertFalse(away.writable());
        assertEquals(modes.length + 3, listed.size()); // the files, d, inside and away
    }
}
