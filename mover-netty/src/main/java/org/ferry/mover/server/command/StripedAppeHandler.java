package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.ControlSession;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.server.TransferMode;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.dtp.StripedTransfers;
import org.ferry.mover.storage.FileStat;
import org.ferry.mover.storage.StorageException;

/**
 * APPE path (RFC 959 section 4.1.3) when the listener is on the DTPs (after SPAS, or PASV on a
 * head node): like globus, an append is a store at the file's current size (gridftp-protocol.md
 * section 2.5), every stripe writing its blocks at that size plus their offsets. Otherwise it is
 * the ordinary {@link AppeHandler}. Needs MODE E (503 otherwise); 550 for a directory.
 */
public final class StripedAppeHandler extends StripedFallbackHandler {


    /** @param dtp the server's DTPs */
    public StripedAppeHandler(StripedDtp dtp) {
        super(dtp, new AppeHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        if (!(session.dataEndpoint() instanceof DataEndpoint.Passive passive
                && passive.listener() instanceof StripedPassiveListener listener)) {
            plain.handle(ctx, argument);
            return;
        }
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        if (session.mode() != TransferMode.EXTENDED_BLOCK) {
            throw new FtpException(503, "Bad sequence of commands: striped transfers need MODE E.");
        }
        String path = ctx.resolve(argument);
        long size = 0;
        try {
            FileStat stat = ctx.storage().stat(path);
            if (stat.isDirectory()) {
                throw new FtpException(550, "Path is a directory.");
            }
            size = stat.sizeBytes();
        } catch (StorageException e) {
            if (e.reason() != StorageException.Reason.NOT_FOUND) {
                throw e;
            }
        }
        Allocation.check(ctx, path, size);
        try (FileChannel created = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            // opened only to create it if missing; the DTPs write
        }
        StripedTransfers.receive(ctx, dtp, listener, path, size);
    }
}
