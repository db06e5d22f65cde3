package org.ferry.mover.server.command;

import java.io.IOException;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;

/**
 * ALLO n [R m] (RFC 959 section 4.1.3): announces the size in bytes of the next STOR/APPE/ESTO,
 * which globus remembers for that store (RFC 959 section 4.1, GFD.020); globus-url-copy sends it
 * before every upload. globus-gridftp-server 13.24 answers 200 to any size and its file DSI never
 * looks at it (observed: {@code ALLO 2^62}, then STOR, 226). Here the size counts:
 * ALLO answers {@code 552} when the file system under the current directory lacks {@code n}
 * usable bytes, and the next store checks the space for its file again before it opens or
 * truncates anything ({@link Allocation}), so a huge upload fails before its first byte rather
 * than midway, and the destination stays as it was. Nothing is reserved: the JDK has no
 * {@code fallocate}, and a sparse pre-sized file would reserve nothing either. The record size
 * after {@code R} is accepted and ignored (file structure only). {@code 200 ALLO command
 * successful.}; {@code 501} for a missing or malformed size.
 *
 * <p>Runs on the control channel's event loop when the session's storage is the server's own (no
 * Popen storage stage), as the STOR after it does: the check is a stat and a {@code statfs}, and a
 * hand-off to the command worker and back was two thread wake-ups per uploaded file, each a wait in
 * the run queue when the cores are busy (globus-url-copy {@code -cc 4}, 5,000 x 50 KiB across hosts).
 */
public final class AlloHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ALLO";
    }

    /** @return true unless a Popen storage stage (SITE SETDISKSTACK) stands between the session and its files */
    @Override
    public boolean runsOnEventLoop(ControlSession session) {
        return session.storageStage() == null;
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        long bytes = parse(argument);
        ctx.session().allocation(bytes); // also when refused: a pipelined STOR must not run on
        long usable = ctx.storage().usableSpaceBytes(ctx.resolve(""));
        if (bytes > usable) {
            throw new FtpException(552, Allocation.insufficient(bytes, usable));
        }
        ctx.reply(200, "ALLO command successful.");
    }

    private static long parse(String argument) throws FtpException {
        String[] words = argument.strip().split(" +");
        boolean record = words.length == 3 && words[1].equalsIgnoreCase("R") && words[2].matches("\\d{1,19}");
        if ((words.length != 1 && !record) || !words[0].matches("\\d{1,19}")) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        try {
            return Long.parseLong(words[0]);
        } catch (NumberFormatException e) { // above 2^63 - 1
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
    }
}
