package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.server.CommandContext;
import org.ferry.mover.server.FtpException;
import org.ferry.mover.server.transfer.TransferRunner;
import org.ferry.mover.storage.FileStat;

/**
 * ERET P offset length path (GFD.020 "Extended Retrieve", partial retrieve module; globus syntax in
 * gridftp-protocol.md section 2.5): sends bytes {@code [offset, offset + length)} of a file as if
 * they were a whole file starting at 0 (MODE E block offsets and restart markers are relative to
 * {@code offset}); the window is cut at the end of the file. Other modules: {@code 504}. Bad
 * numbers {@code 500 command failed.}; no path {@code 501 bad parameter.}
 */
public final class EretHandler implements CommandHandler {

    @Override
    public String verb() {
        return "ERET";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public List<String> features() {
        return List.of("ERET");
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        String[] parts = argument.strip().split(" ", 4);
        if (parts.length < 1 || !parts[0].equalsIgnoreCase("P")) {
            throw new FtpException(504, "Unsupported ERET module; only P (partial) is available.");
        }
        if (parts.length < 4 || parts[3].isEmpty()) {
            throw new FtpException(501, "bad parameter.");
        }
        long offset;
        long length;
        try {
            offset = Long.parseLong(parts[1]);
            length = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            throw new FtpException(500, "command failed.");
        }
        if (offset < 0 || length < 0) {
            throw new FtpException(500, "command failed.");
        }
        String path = ctx.resolve(parts[3]);
        FileStat stat = ctx.storage().stat(path);
        if (!stat.isFile()) {
            throw new FtpException(550, path + ": Path is a directory.");
        }
        TransferRunner.requireEndpoint(ctx, true);
        try (FileChannel channel = ctx.storage().openForRead(path)) {
            long size = channel.size();
            long start = Math.min(offset, size);
            long window = Math.min(length, size - start);
            TransferRunner.send(ctx, DataSource.ofFile(channel, start, window));
        }
    }
}
