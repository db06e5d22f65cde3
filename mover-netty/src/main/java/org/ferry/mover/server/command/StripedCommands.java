package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.CommandRegistry;

/**
 * The command table of a server whose PI drives its DTPs as stripes: every standard command, plus
 * SPAS, SPOR and SITE STRIPES, with RETR, STOR, APPE and ESTO going striped when the data endpoint is, and
 * on a head node PASV in MODE E opening its listener on a data node (GFD.020 "Options to RETR"; RFC 959 section 4.1.2, RFC 2428, GFD.020 "SPAS"/"SPOR"; SC'05 paper section 5).
 */
public final class StripedCommands {

    private StripedCommands() {}

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @return the standard registry with the striped handlers
     */
    public static CommandRegistry registry(StripedDtp dtp) {
        return StandardCommands.registry().with(handlers(dtp));
    }

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @return the striped handlers, to add to a registry with {@link CommandRegistry#with}
     */
    public static List<CommandHandler> handlers(StripedDtp dtp) {
        List<CommandHandler> handlers = new ArrayList<>();
        // same verbs replace the plain RETR/STOR in place; SPAS/SPOR are new FEAT lines
        handlers.add(new StripedRetrHandler(dtp));
        handlers.add(new StripedStorHandler(dtp));
        handlers.add(new StripedAppeHandler(dtp));
        handlers.add(new StripedEstoHandler(dtp));
        handlers.add(new HeadPasvHandler(dtp));
        handlers.add(new SpasHandler(dtp));
        handlers.add(new SporHandler());
        handlers.add(new SiteStripesHandler(dtp));
        return handlers;
    }
}
