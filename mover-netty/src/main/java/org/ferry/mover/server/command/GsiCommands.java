package org.ferry.mover.server.command;

import java.util.ArrayList;
import java.util.List;

/** The command table of a server with GSI: the standard commands plus AUTH, ADAT and a gridmap-aware PASS. */
public final class GsiCommands {

    private GsiCommands() {
    }

    /** @return the standard registry with {@code AUTH}, {@code ADAT} and {@link GsiPassHandler} for PASS */
    public static CommandRegistry registry() {
        List<CommandHandler> handlers = new ArrayList<>(StandardCommands.all());
        handlers.add(new AuthHandler());
        handlers.add(new AdatHandler());
        handlers.add(new GsiPassHandler()); // replaces the clear-text PASS (same verb, later wins)
        return CommandRegistry.of(handlers);
    }
}
