package org.ferry.mover.server.command;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.StateCommandHandler;

/**
 * SITE CLIENTINFO scheme=..;appname="..";appver="..";  (globus extension, RFC 959 section 4.1.3 (SITE); globus-url-copy's session set-up, RFC 959 section 5.3): remembered in the session for logging and client workarounds; {@code 250 OK.}
 */
public final class SiteClientInfoHandler implements StateCommandHandler {

    @Override
    public String verb() {
        return "SITE CLIENTINFO";
    }

    @Override
    public void handle(CommandContext ctx, String argument) {
        ctx.session().clientInfo(argument);
        ctx.reply(250, "OK.");
    }
}
