package org.ferry.mover.server.command;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.PositionalMemorySink;
import org.ferry.mover.protocol.TarModule;
import org.ferry.mover.server.dtp.ErrorReplies;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.multicast.MulticastStage;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.tar.TarArguments;
import org.ferry.mover.server.tar.TarBatchExtractor;
import org.ferry.mover.storage.StorageException;

/**
 * ESTO A offset path (GFD.020 "Extended Store", adjusted store module; GFD.020 "ERET"/"ESTO"): stores received bytes with {@code offset} added to every MODE E block offset (or to the
 * stream start, plus a stream {@code REST n}); the file is neither truncated nor created afresh, so
 * a partial transfer fills its window of an existing file. Other modules: {@code 504}. Bad numbers
 * {@code 500 command failed.}; no path {@code 501 bad parameter.}; after ALLO, 552 before 150 when
 * the window does not fit.
 *
 * <p>{@code ESTO TAR="" dir} ({@link TarModule}, Ferry's tar stream for lots of small files):
 * unpacks the received tar stream's regular files into {@code dir} before 226; 550 if {@code dir}
 * is not a directory, 553 for an entry that is not a plain regular file, 451 for a malformed stream.
 */
public final class EstoHandler implements CommandHandler {

    private final StripedDtp dtp;

    /** @param dtp the server's DTPs: ESTO A goes striped after SPAS, or PASV on a head node */
    public EstoHandler(StripedDtp dtp) {
        this.dtp = dtp;
    }

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
        if (handleStriped(ctx, argument)) {
            return;
        }
        if (TarModule.selects(argument)) {
            storeTar(ctx, argument);
            return;
        }
        String[] parts = argument.strip().split(" ", 3);
        if (parts.length < 1 || !parts[0].equalsIgnoreCase("A")) {
            throw new FtpException(504, "Unsupported ESTO module; A (adjusted) and TAR are available.");
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
        if (ctx.session().storageStage() instanceof MulticastStage multicast) {
            multicast.receiveAt(ctx, offset, parts[2]); // written here and forwarded down the tree
            return;
        }
        String path = ctx.resolve(parts[2]);
        long base = offset + ctx.session().restartOffset();
        ctx.transfers().requireEndpoint(false);
        Allocation.check(ctx, path, base);
        try (FileChannel channel = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            ctx.transfers().receive(DataSink.toFile(channel, base));
        }
    }

    /**
     * ESTO TAR="" dir: receives a tar stream (at most {@link EretHandler#MAX_TAR_BYTES}) and unpacks
     * its files into dir before answering 226 ({@link TarModule}).
     */
    private static void storeTar(CommandContext ctx, String argument) throws FtpException, IOException {
        TarModule.Argument tar = TarArguments.parse(argument);
        String directory = ctx.resolve(tar.path());
        if (!ctx.storage().stat(directory).isDirectory()) {
            throw new FtpException(550, directory + ": Not a directory.");
        }
        ctx.transfers().requireEndpoint(false);
        PositionalMemorySink sink = DataSink.toMemory(EretHandler.MAX_TAR_BYTES);
        TarBatchExtractor extractor = new TarBatchExtractor(ctx.storage());
        ctx.transfers().receive(sink, () -> {
            try {
                extractor.extract(directory, sink.inputStream());
            } catch (IOException e) {
                throw e instanceof StorageException se
                        ? new FtpException(ErrorReplies.of(se))
                        : new FtpException(451, "Local error in processing: " + e.getMessage());
            }
        });
    }

    /**
     * Striped {@code ESTO A <offset> <path>}: every stripe writes its blocks at {@code offset} plus their
     * offsets; the file is neither truncated nor otherwise touched. Malformed arguments go to the plain path
     * for its replies.
     *
     * @return false when the data endpoint is not on the DTPs (the plain path runs)
     */
    private boolean handleStriped(CommandContext ctx, String argument) throws FtpException, IOException {
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
        StripedPassiveListener listener = Stripes.listener(session);
        if (offset < 0 || listener == null) {
            return false; // not striped, or malformed: the plain path's replies
        }
        Stripes.requireStripable(ctx);
        String path = ctx.resolve(parts[2]);
        Allocation.check(ctx, path, offset + session.restartOffset());
        try (FileChannel created = ctx.storage().openForWrite(path, Long.MAX_VALUE)) {
            // opened only to create it if missing; the DTPs write
        }
        ctx.transfers().receiveStriped(dtp, listener, path, offset + session.restartOffset());
        return true;
    }
}
