package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.server.TransferMode;
import org.ferry.mover.server.transfer.TransferRunner;

/**
 * STOR path (RFC 959 section 4.1.3): receives a file, written in place like globus does (a failed
 * upload leaves the partial file, resumable with REST). Stream mode: truncated to the REST offset
 * (0 without REST) and written from there. MODE E (needs PASV/EPSV): blocks are written at their
 * offsets; without REST the file is truncated first, with REST ranges it is kept. 150, 111/112
 * markers in MODE E, 226; 550/552/553 on storage failures.
 */
public final class StorHandler implements CommandHandler {

    @Override
    public String verb() {
        return "STOR";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        boolean modeE = ctx.session().mode() == TransferMode.EXTENDED_BLOCK;
        long offset = ctx.session().restartOffset();
        boolean restarted = offset > 0 || ctx.session().restartRanges() != null;
        TransferRunner.requireEndpoint(ctx, false);
        long truncateTo = modeE ? (restarted ? Long.MAX_VALUE : 0) : offset;
        try (FileChannel channel = ctx.storage().openForWrite(path, truncateTo)) {
            DataSink sink = DataSink.toFile(channel, modeE ? 0 : offset);
            TransferRunner.receive(ctx, sink);
        }
    }
}
