package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.server.transfer.TransferRunner;

/**
 * ESTO A offset path (GFD.020 "Extended Store", adjusted store module; gridftp-protocol.md section
 * 2.5): stores received bytes with {@code offset} added to every MODE E block offset (or to the
 * stream start, plus a stream {@code REST n}); the file is neither truncated nor created afresh, so
 * a partial transfer fills its window of an existing file. Other modules: {@code 504}. Bad numbers
 * {@code 500 command failed.}; no path {@code 501 bad parameter.}; after ALLO, 552 before 150 when
 * the window does not fit.
 */
public final class EstoHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ESTO";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public List<String> features() {
        return List.of("ESTO");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        String[] parts = argument.strip().split(" ", 3);
        if (parts.length < 1 || !parts[0].equalsIgnoreCase("A")) {
            throw new FtpException(504, "Unsupported ESTO module; only A (adjusted) is available.");
        }
        if (parts.length < 3 || parts[2].isEmpty()) {
            throw new FtpException(501, "bad parameter.");
        }
        long offset;
        try {
            offset = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            throw new FtpException(500, "command failed.");
        }
        if (offset < 0) {
            throw new FtpException(500, "command failed.");
        }
        String path = ctx.resolve(parts[2]);
        long base = offset + ctx.session().restartOffset();
        TransferRunner.requireEndpoint(ctx, false);
        Allocation.check(ctx, path, base);
        try (FileChannel channel = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            TransferRunner.receive(ctx, DataSink.toFile(channel, base));
        }
    }
}
