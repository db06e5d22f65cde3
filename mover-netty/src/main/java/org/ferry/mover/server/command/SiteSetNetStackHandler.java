package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;
import org.ferry.mover.server.popen.DiskStacks;

/**
 * SITE SETNETSTACK stack (globus-gridftp-server; globus-url-copy sends it for {@code -dcstack} on
 * {@code gsiftp://} URLs, with {@code gsi} added): Ferry's data channels are always TCP, secured as
 * DCAU and PROT say, so a stack of {@code tcp} and {@code gsi} (or {@code default}) is accepted as
 * what already happens; {@code 250 OK.}; any other driver {@code 500} naming it.
 */
public final class SiteSetNetStackHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "SITE SETNETSTACK";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        DiskStacks.approveNetStack(argument);
        ctx.reply(250, "OK.");
    }
}
