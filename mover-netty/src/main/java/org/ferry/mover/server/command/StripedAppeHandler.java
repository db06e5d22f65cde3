package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.dtp.StripedTransfers;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.FtpException;

/**
 * APPE path (RFC 959 section 4.1.3) when the listener is on the DTPs (after SPAS, or PASV on a
 * head node): like globus, an append is a store at the file's current size (GFD.020 "ERET"/"ESTO"), every stripe writing its blocks at that size plus their offsets. Otherwise it is
 * the ordinary {@link AppeHandler}. Needs MODE E (503 otherwise); 550 for a directory.
 */
public final class StripedAppeHandler extends StripedFallbackHandler {

    /** @param dtp the server's DTPs */
    public StripedAppeHandler(StripedDtp dtp) {
        super(dtp, new AppeHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        StripedPassiveListener listener = stripedListener(ctx.session());
        if (listener == null) {
            plain.handle(ctx, argument);
            return;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        requireStripable(ctx);
        String path = ctx.resolve(argument);
        long size = AppeHandler.appendOffset(ctx, path);
        Allocation.check(ctx, path, size);
        try (FileChannel created = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            // opened only to create it if missing; the DTPs write
        }
        StripedTransfers.receive(ctx, dtp, listener, path, size);
    }
}
