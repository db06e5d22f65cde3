package org.ferry.mover.server.command;

/**
 * SITE HELP [command]: the same list as HELP (globus-gridftp-server, RFC 959 section 4.1.3 (SITE)); globus-url-copy sends it right after login and tolerates any 214 multi-line reply.
 */
public final class SiteHelpHandler extends HelpHandler {

    @Override
    public String verb() {
        return "SITE HELP";
    }

    @Override
    public boolean allowedBeforeLogin() {
        return false;
    }
}
