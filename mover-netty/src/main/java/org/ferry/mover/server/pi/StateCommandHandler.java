package org.ferry.mover.server.pi;

/**
 * A command that only reads or sets session state and replies (TYPE, MODE, REST, PROT, FEAT, ...):
 * no file system, nothing to wait for, so it runs on the control channel's event loop instead of
 * being handed to the session's worker and back (RFC 959 section 4.1.2 and 4.1.3 commands, GFD.020
 * settings).
 */
public interface StateCommandHandler extends CommandHandler {

    /** @return true: nothing in such a command blocks */
    @Override
    default boolean runsOnEventLoop(ControlSession session) {
        return true;
    }
}
