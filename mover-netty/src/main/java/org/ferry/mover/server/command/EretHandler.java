package org.ferry.mover.server.command;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.TarModule;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.tar.TarArguments;
import org.ferry.mover.server.tar.TarBatchArchiver;
import org.ferry.mover.storage.FileStat;

/**
 * ERET P offset length path (GFD.020 "Extended Retrieve", partial retrieve module; globus syntax in
 * GFD.020 "ERET"/"ESTO"): sends bytes {@code [offset, offset + length)} of a file as if
 * they were a whole file starting at 0 (MODE E block offsets and restart markers are relative to
 * {@code offset}); the window is cut at the end of the file. Other modules: {@code 504}. Bad
 * numbers {@code 500 command failed.}; no path {@code 501 bad parameter.}
 *
 * <p>{@code ERET TAR="name/name/..." dir} ({@link TarModule}, Ferry's tar stream for lots of small
 * files): sends the named regular files of {@code dir} as one tar stream; 550 naming a missing file,
 * 552 past {@link #MAX_TAR_BYTES}, 501 for malformed parameters.
 */
public final class EretHandler implements CommandHandler {

    /** Largest tar batch this server builds or accepts, in bytes (the client keeps batches far smaller). */
    public static final int MAX_TAR_BYTES = 64 << 20;

    @Override
    public String verb() {
        return "ERET";
    }

    @Override
    public boolean movesData() {
        return true;
    }

    @Override
    public boolean sendsFile() {
        return true;
    }

    @Override
    public List<String> features() {
        return List.of("ERET", TarModule.FEATURE);
    }

    @Override
    public void handle(CommandContext ctx, String argument) throws FtpException, IOException {
        if (TarModule.selects(argument)) {
            retrieveTar(ctx, argument);
            return;
        }
        String[] parts = argument.strip().split(" ", 4);
        if (parts.length < 1 || !parts[0].equalsIgnoreCase("P")) {
            throw new FtpException(504, "Unsupported ERET module; P (partial) and TAR are available.");
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
        ctx.transfers().requireEndpoint(true);
        try (FileChannel channel = ctx.storage().openForRead(path)) {
            long size = channel.size();
            long start = Math.min(offset, size);
            long window = Math.min(length, size - start);
            ctx.transfers().send(DataSource.ofFile(channel, start, window));
        }
    }

    /** ERET TAR="names" dir: the named files of dir as one tar stream ({@link TarModule}). */
    private static void retrieveTar(CommandContext ctx, String argument) throws FtpException, IOException {
        TarModule.Argument tar = TarArguments.parse(argument);
        if (tar.names().isEmpty()) {
            throw new FtpException(501, "bad parameter: ERET TAR names no file.");
        }
        String directory = ctx.resolve(tar.path());
        ctx.transfers().requireEndpoint(true);
        ByteBuf archive = new TarBatchArchiver(ctx.storage(), MAX_TAR_BYTES)
                .archive(directory, tar.names(), ctx.channel().alloc());
        try {
            ctx.transfers().send(DataSource.ofBuffer(archive));
        } finally {
            archive.release(); // the transfer's slices hold their own references while queued
        }
    }
}
