package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.dtp.StripedTransfers;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;

/**
 * STOR path after SPAS (GFD.020 "SPAS"; SC'05 paper section 5): every stripe's DTP receives what
 * its senders send to its listener and writes each MODE E block at its offset into the same file
 * (data nodes share the file system, as in the Globus striped server). The PI truncates the file
 * first (kept as is after REST), so that no stripe truncates what another wrote. Otherwise it is
 * the ordinary {@link StorHandler}. Needs MODE E (503 otherwise).
 */
public final class StripedStorHandler extends StripedFallbackHandler {

    /** @param dtp the server's DTPs */
    public StripedStorHandler(StripedDtp dtp) {
        super(dtp, new StorHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        StripedPassiveListener listener = stripedListener(session);
        if (listener == null) {
            plain.handle(ctx, argument);
            return;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        requireStripable(ctx);
        String path = ctx.resolve(argument);
        boolean restarted = session.restartOffset() > 0 || session.restartRanges() != null;
        Allocation.check(ctx, path, 0);
        try (FileChannel created = ctx.storage().openForWrite(path, restarted ? Long.MAX_VALUE : 0)) {
            // opened only to create or truncate it before any stripe writes
        }
        StripedTransfers.receive(ctx, dtp, listener, path, 0);
    }
}
