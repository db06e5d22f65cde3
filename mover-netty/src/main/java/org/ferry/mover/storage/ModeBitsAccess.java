package org.ferry.mover.storage;

import com.sun.security.auth.module.UnixSystem;
import java.util.Arrays;

/**
 * Whether this process may read or write a file, decided from the file's mode bits, owner and
 * group as stat(2) gives them, the way access(2) decides for the classic permission bits (POSIX.1
 * "File Access Permissions"): the owner's bits if the process's effective uid owns the file, else
 * the group's bits if the file's group is one of the process's groups, else the others' bits; uid 0
 * may read and write anything.
 *
 * <p>Why not access(2): a listing asked it twice per entry (read, write), each a path walk of its
 * own, two thirds of the system calls of an MLSD of a large directory; globus-gridftp-server derives
 * its {@code perm} fact from the stat alone too. The price: access control lists and read-only
 * mounts are not seen, so the fact is advisory (as RFC 3659 section 7.5.5 says it is); nothing but
 * the {@code perm} fact uses it, and opening a file still asks the kernel.
 */
final class ModeBitsAccess {

    private final long uid;
    private final long[] groups; // sorted: the effective gid and the supplementary groups

    /**
     * @param uid the effective user id
     * @param groups the effective group id and the supplementary group ids, in any order
     */
    ModeBitsAccess(long uid, long... groups) {
        this.uid = uid;
        this.groups = groups.clone();
        Arrays.sort(this.groups);
    }

    /** @return the credentials of this process (read once: a server does not change its uid) */
    static ModeBitsAccess ofThisProcess() {
        UnixSystem system = new UnixSystem();
        long[] groups = system.getGroups();
        long[] supplementary = groups == null ? new long[0] : groups;
        long[] all = Arrays.copyOf(supplementary, supplementary.length + 1);
        all[supplementary.length] = system.getGid();
        return new ModeBitsAccess(system.getUid(), all);
    }

    /**
     * @param mode the file's mode bits (st_mode; the permission bits are the low nine)
     * @param owner the file's uid
     * @param group the file's gid
     * @return whether this process may read the file (list it, for a directory)
     */
    boolean mayRead(int mode, long owner, long group) {
        return may(mode, owner, group, 04);
    }

    /**
     * @param mode the file's mode bits
     * @param owner the file's uid
     * @param group the file's gid
     * @return whether this process may write the file (create entries in it, for a directory)
     */
    boolean mayWrite(int mode, long owner, long group) {
        return may(mode, owner, group, 02);
    }

    private boolean may(int mode, long owner, long group, int bit) {
        if (uid == 0) {
            return true; // CAP_DAC_OVERRIDE: read and write regardless of the bits
        }
        int shift = owner == uid ? 6 : Arrays.binarySearch(groups, group) >= 0 ? 3 : 0;
        return (mode >> shift & bit) != 0;
    }
}
