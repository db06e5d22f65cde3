package org.ferry.mover.server.pi;

import java.io.IOException;

/**
 * What a session's transfers read and write instead of the named file, chosen by {@code SITE
 * SETDISKSTACK} (the Globus file system driver stack, e.g. an allow-listed program through the
 * Popen driver; {@code org.ferry.mover.server.popen}). Runs on the command worker thread, through
 * the session's data channels like a file transfer: 150, markers, 226 or the failure reply.
 */
public interface StorageStage {

    /**
     * RETR: sends what this stage produces.
     *
     * @param ctx the session
     * @param argument the RETR argument (a path the stage may ignore, as globus-gridftp-server's
     *     Popen driver does)
     * @throws FtpException the reply owed instead of 226
     * @throws IOException on a storage failure
     */
    void send(CommandContext ctx, String argument) throws FtpException, IOException;

    /**
     * STOR or APPE: hands the received bytes to this stage.
     *
     * @param ctx the session
     * @param argument the STOR argument (a path the stage may ignore)
     * @throws FtpException the reply owed instead of 226
     * @throws IOException on a storage failure
     */
    void receive(CommandContext ctx, String argument) throws FtpException, IOException;

    /** Stops what the stage runs for the session now (the control channel closed). Never throws. */
    void stop();
}
