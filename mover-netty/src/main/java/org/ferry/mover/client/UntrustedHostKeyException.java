package org.ferry.mover.client;

import java.nio.file.AccessDeniedException;

/**
 * An sshftp server showed a host key that the session's settings do not trust: another key than
 * the pinned one, or one not in the known_hosts file (RFC 4251 section 4.1: the client must check
 * the server's host key). A refusal, not a fault: retrying meets the same key.
 */
public class UntrustedHostKeyException extends AccessDeniedException {

    /** @param reason which key was shown and what was expected, for people */
    public UntrustedHostKeyException(String reason) {
        super(null, null, reason);
    }
}
