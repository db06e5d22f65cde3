package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * The store side of ALLO (RFC 959 section 4.1.3; {@link AlloHandler}): before a STOR, APPE or ESTO
 * opens or truncates its file, the size ALLO announced must fit on the file system. Stateless.
 */
final class Allocation {

    private Allocation() {}

    /**
     * Consumes the session's ALLO size, if any, and checks that the file system has room for the
     * window {@code [base, base + size)} of {@code path} beyond the file's current size (bytes
     * already there are overwritten or freed by truncation, not added).
     *
     * @param ctx the session context
     * @param path the virtual path about to be written
     * @param base the file offset the transfer's first byte goes to (0 for STOR, the old size for
     *     APPE, the ESTO offset)
     * @throws FtpException {@code 552} when the space is short; nothing has been opened then
     * @throws StorageException when the path cannot be examined
     */
    static void check(CommandContext ctx, String path, long base) throws FtpException, StorageException {
        long bytes = ctx.session().takeAllocation();
        if (bytes <= 0) {
            return;
        }
        long end = base > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : base + bytes;
        long usable = ctx.storage().usableSpaceBytes(path);
        if (end <= usable) {
            // fits even if no byte of the window is in the file yet: no stat, which for a new
            // file (an upload's usual case) costs exceptions with stack traces (JFR: five a file)
            return;
        }
        long existing = 0;
        try {
            FileStat stat = ctx.storage().stat(path);
            existing = stat.isFile() ? stat.sizeBytes() : 0;
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.NOT_FOUND) {
                throw e;
            }
        }
        long needed = end - existing; // bytes already there are overwritten, not added
        if (needed > usable) {
            throw new FtpException(552, insufficient(needed, usable));
        }
    }

    /** @return the text of a 552 reply for {@code needed} bytes where {@code usable} are free */
    static String insufficient(long needed, long usable) {
        return "Insufficient storage space: " + needed + " bytes needed, " + usable + " usable.";
    }
}
