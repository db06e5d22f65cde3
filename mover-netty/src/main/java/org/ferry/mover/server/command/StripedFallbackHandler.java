package org.ferry.mover.server.command;

import java.util.List;
import org.ferry.mover.server.dtp.StripedDtp;

/**
 * Base of a head node's striped variant of a command (the Globus striped server, SC'05 paper
 * section 5): what the command is (verb, FEAT lines, whether it moves data) comes from the ordinary
 * handler, which also runs the command whenever the transfer is not striped.
 */
abstract class StripedFallbackHandler implements CommandHandler {

    /** The server's data transfer processes (data nodes). */
    protected final StripedDtp dtp;

    /** The ordinary handler, for transfers whose data endpoint is not on the DTPs. */
    protected final CommandHandler plain;

    /**
     * @param dtp the server's DTPs
     * @param plain the ordinary handler of the same verb
     */
    StripedFallbackHandler(StripedDtp dtp, CommandHandler plain) {
        this.dtp = dtp;
        this.plain = plain;
    }

    @Override
    public final String verb() {
        return plain.verb();
    }

    @Override
    public final List<String> features() {
        return plain.features();
    }

    @Override
    public final boolean movesData() {
        return plain.movesData();
    }

    @Override
    public final boolean allowedBeforeLogin() {
        return plain.allowedBeforeLogin();
    }
}
