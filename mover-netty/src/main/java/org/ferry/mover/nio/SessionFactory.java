package org.ferry.mover.nio;

import java.io.IOException;
import org.ferry.mover.client.GridFtpSession;

/**
 * Opens logged-in sessions to the one server of a file system; what a URI scheme plugs into
 * {@link GridFtpFileSystemProvider}: {@code ftp://} logs in with USER/PASS, {@code gsiftp://}
 * authenticates with GSI first, {@code sshftp://} (once the client speaks it) runs the control
 * channel over SSH. A file system keeps the sessions in a bounded pool ({@link SessionPool}).
 */
@FunctionalInterface
public interface SessionFactory {

    /**
     * @return a new logged-in session, in binary type ({@code TYPE I})
     * @throws IOException if the server cannot be reached or refuses the login (530 as
     *     {@link org.ferry.mover.client.GridFtpReplyException}), or a credential is missing
     */
    GridFtpSession open() throws IOException;
}
