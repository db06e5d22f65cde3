package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.CommandRegistry;
import org.ferry.mover.server.popen.PopenPolicy;

/**
 * The command table of a server with GSI: the standard commands plus AUTH, ADAT, a gridmap-aware
 * PASS, and the data channel security commands DCAU, PBSZ and PROT (which put DCAU in FEAT).
 */
public final class GsiCommands {

    private GsiCommands() {}

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @return the standard registry with {@code AUTH}, {@code ADAT} and {@link GsiPassHandler} for PASS
     */
    public static CommandRegistry registry(StripedDtp dtp) {
        return registry(dtp, PopenPolicy.disabled());
    }

    /**
     * @param dtp the server's DTPs (one local DTP, or one per data node)
     * @param popen the programs SITE SETDISKSTACK may run and their limits
     * @return the standard registry with {@code AUTH}, {@code ADAT} and {@link GsiPassHandler} for PASS
     */
    public static CommandRegistry registry(StripedDtp dtp, PopenPolicy popen) {
        List<CommandHandler> handlers = new ArrayList<>(StandardCommands.all(dtp, popen));
        handlers.add(new AuthHandler());
        handlers.add(new AdatHandler());
        handlers.add(new GsiPassHandler()); // replaces the clear-text PASS (same verb, later wins)
        handlers.add(new DcauHandler());
        handlers.add(new PbszHandler());
        handlers.add(new ProtHandler());
        return CommandRegistry.of(handlers);
    }
}
