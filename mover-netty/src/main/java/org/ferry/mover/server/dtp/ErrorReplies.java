package org.ferry.mover.server.dtp;

import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.storage.StorageException;

/**
 * Maps storage failures, the DTP's and those of the PI's own file commands, to reply codes the way
 * globus-gridftp-server does (RFC 959 section 4.2: ENOENT/EACCES/ENOTDIR/EISDIR 550, ENOSPC 552, EEXIST 553, others 451).
 */
public final class ErrorReplies {

    private ErrorReplies() {}

    /**
     * @param e the failure
     * @return the reply, whose text is the exception's message (it names virtual paths only)
     */
    public static FtpReply of(StorageException e) {
        int code = switch (e.reason()) {
            case NOT_FOUND, PERMISSION_DENIED, NOT_A_DIRECTORY, IS_A_DIRECTORY, NOT_EMPTY -> 550;
            case NO_SPACE -> 552;
            case EXISTS, INVALID_PATH -> 553;
            case OTHER -> 451;
        };
        return FtpReply.of(code, e.getMessage());
    }
}
