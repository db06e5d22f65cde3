package org.ferry.mover.server.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.StorageStage;
import org.junit.jupiter.api.Test;

/**
 * Where ALLO runs: on the control channel's event loop for the server's own storage, as the PASV
 * and STOR around it do (no thread hand-off per uploaded file), on the command worker behind a
 * Popen storage stage, whose storage may block.
 */
class AlloHandlerTest {

    @Test
    void runsOnTheEventLoopUnlessAStorageStageIsSet() {
        AlloHandler allo = new AlloHandler();
        ControlSession session = new ControlSession();
        assertThat(allo.runsOnEventLoop(session)).isTrue();
        session.storageStage(new StorageStage() {
            @Override
            public void send(CommandContext ctx, String argument) {}

            @Override
            public void receive(CommandContext ctx, String argument) {}

            @Override
            public void stop() {}
        });
        assertThat(allo.runsOnEventLoop(session)).isFalse();
        session.storageStage(null);
        assertThat(allo.runsOnEventLoop(session)).isTrue();
    }
}
