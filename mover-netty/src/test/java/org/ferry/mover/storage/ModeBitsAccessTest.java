package org.ferry.mover.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModeBitsAccessTest {

    private final ModeBitsAccess user = new ModeBitsAccess(1000, 100, 27);

    @Test
    void theOwnersBitsDecideForTheOwnerEvenWhenOthersMayMore() {
        assertTrue(user.mayRead(0400, 1000, 5));
        assertFalse(user.mayWrite(0400, 1000, 5));
        assertTrue(user.mayWrite(0200, 1000, 5));
        assertFalse(user.mayRead(0077, 1000, 100)); // owner with no bits: group and others do not count
    }

    @Test
    void theGroupsBitsDecideForAMemberOfTheFilesGroup() {
        assertTrue(user.mayRead(0040, 2000, 27)); // a supplementary group
        assertTrue(user.mayWrite(0020, 2000, 100)); // the effective gid
        assertFalse(user.mayRead(0404, 2000, 100)); // a member without the group bit
    }

    @Test
    void theOthersBitsDecideForEveryoneElse() {
        assertTrue(user.mayRead(0004, 2000, 5));
        assertFalse(user.mayWrite(0004, 2000, 5));
        assertTrue(user.mayWrite(0002, 2000, 5));
        assertFalse(user.mayRead(0660, 2000, 5));
    }

    @Test
    void rootMayReadAndWriteWhateverTheBits() {
        ModeBitsAccess root = new ModeBitsAccess(0, 0);
        assertTrue(root.mayRead(0, 1000, 100));
        assertTrue(root.mayWrite(0, 1000, 100));
    }

    @Test
    void thisProcessAgreesWithAccessForItsOwnFiles(@TempDir Path dir) throws Exception {
        ModeBitsAccess self = ModeBitsAccess.ofThisProcess();
        for (String perms : new String[] {"---------", "r--------", "-w-------", "rw-r--r--", "------rw-"}) {
            Path file = Files.createFile(dir.resolve("f" + perms.replace('-', '_')));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
            Map<String, Object> unix = Files.readAttributes(file, "unix:mode,uid,gid");
            int mode = (Integer) unix.get("mode");
            long uid = (Integer) unix.get("uid");
            long gid = (Integer) unix.get("gid");
            assertEquals(Files.isReadable(file), self.mayRead(mode, uid, gid), perms + " read");
            assertEquals(Files.isWritable(file), self.mayWrite(mode, uid, gid), perms + " write");
        }
    }
}
