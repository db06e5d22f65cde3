package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.server.transfer.TransferRunner;
import org.ferry.mover.storage.FileStat;

/**
 * RETR path (RFC 959 section 4.1.3): sends a file from the restart offset (REST n, or the
 * contiguous prefix of MODE E REST ranges) to its end, in stream mode or MODE E with the session's
 * parallelism (MODE E needs PORT/EPRT). 150 then 226; 550 for a missing file or a directory, 554
 * for a restart offset past the end (RFC 3659 section 5.5).
 */
public final class RetrHandler implements CommandHandler {

    @Override
    public String verb() {
        return "RETR";
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        if (argument.isEmpty()) {
            throw new FtpException(501, "Syntax error in parameters or arguments.");
        }
        String path = ctx.resolve(argument);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": Path is a directory.");
        }
        long offset = ctx.session().restartOffset();
        String ranges = ctx.session().restartRanges();
        if (ranges != null) {
            offset = RestHandler.contiguousPrefix(ranges);
            if (offset < 0) {
                throw new FtpException(504, "Restart ranges with gaps are not supported.");
            }
        }
        TransferRunner.requireEndpoint(ctx, true);
        try (FileChannel channel = ctx.storage().openForRead(path)) {
            long size = channel.size();
            if (offset > size) {
                throw new FtpException(554, "Restart offset " + offset + " is past the end of " + path + ".");
            }
            TransferRunner.send(ctx, DataSource.ofFile(channel, offset, size - offset));
        }
    }
}
