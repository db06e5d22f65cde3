package org.ferry.mover.server.command;

import java.util.Optional;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.popen.DiskStacks;
import org.ferry.mover.server.popen.PopenCommand;
import org.ferry.mover.server.popen.PopenPolicy;
import org.ferry.mover.server.popen.PopenStage;

/**
 * SITE SETDISKSTACK stack (globus-gridftp-server; globus-url-copy sends it for {@code -fsstack},
 * {@code -src-pipe} and {@code -dst-pipe}: {@code popen:argv=#tar#cf#-#-C#/data#run1}): chooses what
 * the session's following RETR, STOR and APPE read and write. {@code default}, {@code file} and
 * {@code ordering} are the files themselves; {@code popen} runs an allow-listed program ({@link
 * DiskStacks}, {@link PopenStage}). {@code 250 OK.}; {@code 500} naming the driver or the program
 * refused, the session's stack then unchanged.
 */
public final class SiteSetDiskStackHandler implements CommandHandler {

    private final PopenPolicy policy;

    /** @param policy the programs the server allows and the limits of their runs */
    public SiteSetDiskStackHandler(PopenPolicy policy) {
        this.policy = policy;
    }

    @Override
    public String verb() {
        return "SITE SETDISKSTACK";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        Optional<PopenCommand> command = DiskStacks.approveDiskStack(argument, policy);
        ctx.session().storageStage(command.map(c -> new PopenStage(c, policy)).orElse(null));
        ctx.reply(250, "OK.");
    }
}
