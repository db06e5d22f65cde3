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
 * {@code ESTO A <offset> <path>} (GFD.020 "ESTO"; GFD.020 "ERET"/"ESTO") when the
 * listener is on the DTPs (after SPAS, or PASV on a head node): every stripe writes its blocks at
 * {@code offset} plus their offsets, the file is neither truncated nor otherwise touched. Otherwise
 * it is the ordinary {@link EstoHandler}, which also answers every malformed argument.
 */
public final class StripedEstoHandler extends StripedFallbackHandler {

    /** @param dtp the server's DTPs */
    public StripedEstoHandler(StripedDtp dtp) {
        super(dtp, new EstoHandler());
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        ControlSession session = ctx.session();
        String[] parts = argument.strip().split(" ", 3);
        long offset;
        try {
            offset = parts.length == 3 && parts[0].equalsIgnoreCase("A") && !parts[2].isEmpty()
                    ? Long.parseLong(parts[1])
                    : -1;
        } catch (NumberFormatException e) {
            offset = -1;
        }
        StripedPassiveListener listener = stripedListener(session);
        if (offset < 0 || listener == null) {
            plain.handle(ctx, argument); // not striped, or malformed: the plain handler's replies
            return;
        }
        requireStripable(ctx);
        String path = ctx.resolve(parts[2]);
        Allocation.check(ctx, path, offset + session.restartOffset());
        try (FileChannel created = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            // opened only to create it if missing; the DTPs write
        }
        StripedTransfers.receive(ctx, dtp, listener, path, offset + session.restartOffset());
    }
}
