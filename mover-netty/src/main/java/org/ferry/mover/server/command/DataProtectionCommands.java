package org.ferry.mover.server.command;

import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.server.pi.CommandContext;

/** What DCAU, PROT and PBSZ share: the delegated-credential check and dropping cached connections. */
final class DataProtectionCommands {

    private DataProtectionCommands() {}

    static boolean hasDelegatedCredential(CommandContext ctx) {
        SecurityContext security = ctx.session().securityContext();
        return security != null
                && security.established()
                && security.delegatedCredential().isPresent();
    }

    /**
     * Cached data connections were authenticated (or not) under the old setting: forget the data
     * endpoint, as a MODE change does, so the next transfer opens new ones after PASV/PORT.
     */
    static void dropCachedConnections(CommandContext ctx) {
        ctx.session().dataEndpoint(null);
    }
}
