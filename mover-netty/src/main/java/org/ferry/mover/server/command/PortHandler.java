package org.ferry.mover.server.command;

import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * PORT h1,h2,h3,h4,p1,p2 (RFC 959 section 4.1.2): the server connects to that address for the
 * next transfer (in MODE E: the sending side, GFD.020 "Extended Block Mode", data connection reuse). Any host is
 * accepted, since third-party transfers point a server at another server, but no port below 1024
 * (the bounce attack, RFC 2577 section 3). {@code 200 PORT Command successful.};
 * {@code 501 Illegal PORT command.} when malformed; {@code 504} for a privileged port.
 */
public final class PortHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "PORT";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException {
        ctx.session().dataEndpoint(new DataEndpoint.Active(DataPorts.unprivileged(DataPorts.parsePort(argument))));
        ctx.reply(200, "PORT Command successful.");
    }
}
